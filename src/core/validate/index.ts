/** SHACL validation of candidate records, and the Turtle form of its report. */
export { createValidator, shaclFactory } from './validator.js';
export type {
  RecordToValidate,
  RecordValidator,
  ResultSeverity,
  ValidateOptions,
  ValidationReport,
  ValidationResult,
  ValidatorOptions,
} from './validator.js';
export { reportTurtle } from './report-turtle.js';
