import { describe, expect, it } from 'vitest';
import { readsAsEnglish } from '../../src/core/rule-wording.ts';

describe('readsAsEnglish', () => {
  it('tells English prose from prose of another language, by script and by short words', () => {
    expect(readsAsEnglish(['- Always run the tests before you push.', '- Never commit secrets to the repository.'])).toBe(true);
    expect(
      readsAsEnglish(['- Immer die Tests ausführen, bevor du pushst.', '- Keine Geheimnisse in das Repository.', '- Nie auf main.']),
    ).toBe(false);
    // Words as long as the longest listed one ("toujours") count too.
    expect(readsAsEnglish(['- Toujours lancer les tests.', '- Toujours relire les changements.', '- Toujours signer.'])).toBe(false);
    expect(readsAsEnglish(['- テストを実行してからプッシュする', '- 秘密情報をコミットしない'])).toBe(false);
    // Terse phrases of neither, and words inside code, are English.
    expect(readsAsEnglish(['- 2-space indentation', '- TypeScript strict mode', '```', 'und und und die der das', '```'])).toBe(true);
  });
});
