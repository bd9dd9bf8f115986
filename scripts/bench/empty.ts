// The runtime floor F: an empty entry point, run with the same runtime, config, flags and scopes as main.ts.
