// Imported first by every bench that times processes: each process it starts,
// the tool and its yardsticks (`node -e 0`, the floors) alike, starts without
// NODE_EXTRA_CA_CERTS. Node parses the whole bundle that variable names at every
// start, before any code runs; that cost belongs to the machine's environment,
// not to the tool, and added to both sides it pulls every ratio towards 1
// (docs/adr/0109-benches-time-processes-without-extra-certificates.md).
delete process.env.NODE_EXTRA_CA_CERTS;
