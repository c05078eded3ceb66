// Writes dist/bundles/: the base-independent reference bundles, pre-parsed, so a start need not parse the
// Turtle and TSV sources. Each is used only while its source file is unchanged.
import { writeBundlesCache } from '../dist/core/vocab/bundles.js';

console.log(`wrote dist/bundles (${writeBundlesCache()} bundles)`);
