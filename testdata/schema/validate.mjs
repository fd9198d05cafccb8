// Validates YAML documents against aclint's queues.yaml schema with
// yaml-language-server's own language service (its YAML parser and its schema
// validator, as editors run them). Used by TestSchemaInEditorValidator
// (pkg/yunikorn/schema_test.go); `make schema-tools` installs the packages.
//
//   node validate.mjs SCHEMA.json CASES.json
//
// CASES.json is a list of YAML texts; the output is one JSON list with, for
// each text, the messages of the schema's diagnostics (empty: valid).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { getLanguageService } = require('yaml-language-server/out/server/src/languageservice/yamlLanguageService.js');
const { TextDocument } = require('vscode-languageserver-textdocument');

const [schemaPath, casesPath] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
const uri = 'file:///aclint/queues.schema.json';

const ls = getLanguageService({
  schemaRequestService: async (u) => { throw new Error('no schema at ' + u); },
  workspaceContext: { resolveRelativePath: (p) => p },
});
ls.configure({ validate: true, yamlVersion: '1.2', schemas: [{ uri, fileMatch: ['*.yaml'], schema }] });

const out = [];
for (let i = 0; i < cases.length; i++) {
  const doc = TextDocument.create(`file:///aclint/case${i}/queues.yaml`, 'yaml', 1, cases[i]);
  const diags = await ls.doValidation(doc, false);
  // YAML syntax errors are the parser's, not the schema's: only schema
  // diagnostics count here
  out.push(diags.filter((d) => d.source !== 'YAML' && !/^YAML/.test(String(d.source || ''))).map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message} [${d.source}]`));
}
process.stdout.write(JSON.stringify(out));
