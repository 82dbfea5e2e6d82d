#!/usr/bin/env node
// The slipway CLI; built code lives in dist/ (npm run build).
import { runCli } from '../dist/src/cli/main.js';

process.exitCode = await runCli(process.argv.slice(2));
