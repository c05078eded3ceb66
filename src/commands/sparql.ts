import { Args, Flags } from '@oclif/core';
import { ClientCommand } from '../cli/client/client-command.js';
import {
  readQueryText,
  resultColumns,
  resultsAsCsv,
  resultsAsTsv,
  runQuery,
  variablesOf,
  type SparqlGraphResult,
  type SparqlJsonResults,
} from '../cli/client/sparql.js';
import { outputWidth, renderTable } from '../cli/client/table.js';

export default class Sparql extends ClientCommand {
  static override summary = "Run a read-only SPARQL query against the registry's /sparql endpoint.";
  static override description = `The query is the argument itself, @file for the content of a file, or - for standard input. It is sent as a POST of application/sparql-query with the profile's credential (a registry may refuse anonymous queries: exit 9), and the registry's query limits apply: a query that is too long, too deep or answers too many rows is refused with exit 8, a query still running at its time limit with exit 12.

SELECT results print as a table fitted to the terminal, or with --format as json (SPARQL 1.1 Query Results JSON), csv (SPARQL 1.1 CSV: values without types, RFC 4180 quoting, CRLF line ends) or tsv (SPARQL 1.1 TSV: terms written as in N-Triples). An ASK query prints true or false and exits 0 either way: read the answer, not the exit code. CONSTRUCT and DESCRIBE print the RDF text the registry sends (Turtle) whatever --format says.

Under --json the SPARQL JSON results are printed as the registry sent them (head with vars, results with bindings, or boolean); for CONSTRUCT and DESCRIBE an object with content_type and data (the RDF text).`;
  static override examples = [
    `<%= config.bin %> <%= command.id %> 'SELECT ?s ?name WHERE { GRAPH ?g { ?s <http://schema.org/name> ?name } } LIMIT 10'`,
    '<%= config.bin %> <%= command.id %> @query.rq --format csv > results.csv',
    `echo 'ASK { GRAPH ?g { ?s a <http://www.w3.org/ns/dcat#Dataset> } }' | <%= config.bin %> <%= command.id %> -`,
    `<%= config.bin %> <%= command.id %> 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 50' > sample.ttl`,
    '<%= config.bin %> <%= command.id %> @query.rq --json',
  ];
  static override args = {
    query: Args.string({
      description: 'the query text, @file to read it from a file, or - to read standard input',
      required: true,
    }),
  };
  static override flags = {
    format: Flags.string({
      char: 'f',
      description: 'how SELECT results are printed',
      options: ['table', 'json', 'csv', 'tsv'],
      default: 'table',
    }),
  };

  async run(): Promise<SparqlJsonResults | SparqlGraphResult> {
    const { args, flags } = await this.parse(Sparql);
    const query = await readQueryText(args.query);
    const answer = await runQuery((await this.registry(flags)).http, query);
    if (answer.kind === 'graph') {
      if (!this.jsonEnabled()) process.stdout.write(answer.graph.data);
      return answer.graph;
    }
    const { results } = answer;
    if (this.jsonEnabled()) return results;
    if (results.boolean !== undefined && flags.format !== 'json') {
      this.log(String(results.boolean));
      return results;
    }
    switch (flags.format) {
      case 'json':
        this.log(JSON.stringify(results, null, 2));
        break;
      case 'csv':
        process.stdout.write(resultsAsCsv(results));
        break;
      case 'tsv':
        process.stdout.write(resultsAsTsv(results));
        break;
      default:
        this.printResultTable(results);
    }
    return results;
  }

  private printResultTable(results: SparqlJsonResults): void {
    const rows = results.results?.bindings ?? [];
    const variables = variablesOf(results);
    if (rows.length > 0) this.log(renderTable(rows, resultColumns(variables), outputWidth()));
    this.logToStderr(`${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`);
  }
}
