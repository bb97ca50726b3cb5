import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The screenshot tour (tests/e2e/tour.tour.ts) is for a person to look at, so it stays out of `npm test`.
export default defineConfig({ ...base, test: { ...base.test, include: ['tests/e2e/tour.tour.ts'] } });
