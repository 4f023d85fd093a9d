// Usage: node tools/bpmn-layout/layout.mjs [file.bpmn ...]   (no file: every .bpmn of the repository)
// The process XML is the source we edit (by hand or in the Modeler); this rewrites each file's diagram interchange
// (DI) from it and leaves every other byte of the file as it was. Every sub-process is drawn collapsed in its parent
// with its own plane (BPMN 2.0 DI: a BPMNDiagram whose plane's bpmnElement is the sub-process), which Cockpit and the
// Modeler open with a click. ELK's layered algorithm places the shapes and routes the flows around them.
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagramXml } from './di.mjs';

// packages missing (or from before a pull that changed them): say how to install them, not a stack trace
const { BpmnModdle, layoutDefinitions } = await import('bpmn-moddle')
  .then(async moddle => ({ BpmnModdle: moddle.BpmnModdle, ...await import('./plane.mjs') }))
  .catch(e => {
    if (e.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    console.error(`${e.message}\nInstall this tool's packages first: npm ci --prefix tools/bpmn-layout`);
    process.exit(2);
  });

const DI_BLOCK = /\s*<([\w.-]+:)?BPMNDiagram\b[\s\S]*<\/([\w.-]+:)?BPMNDiagram>/;
const NAMESPACES = {
  bpmndi: 'http://www.omg.org/spec/BPMN/20100524/DI',
  dc: 'http://www.omg.org/spec/DD/20100524/DC',
  di: 'http://www.omg.org/spec/DD/20100524/DI'
};

/** The file's text with its DI replaced by a freshly laid out one; the semantic part is kept byte for byte. */
export async function layoutFile(text) {
  const semantic = text.replace(DI_BLOCK, '');
  const { rootElement: definitions, warnings } = await new BpmnModdle().fromXML(semantic);
  if (warnings.length) {
    throw new Error(warnings.map(w => w.message).join('; '));
  }
  const planes = await layoutDefinitions(definitions);
  const close = semantic.match(/\n?\s*<\/([\w.-]+:)?definitions>\s*$/);
  if (!close) {
    throw new Error('no closing definitions element at the end of the file');
  }
  const withNamespaces = declareNamespaces(semantic.slice(0, close.index));
  return withNamespaces + '\n' + diagramXml(planes, '  ') + close[0].replace(/\s*$/, '\n');
}

/** The DI prefixes we write, declared on the root element where the file does not declare them yet. */
function declareNamespaces(text) {
  return text.replace(/<([\w.-]+:)?definitions\b[^>]*>/, root => {
    let declared = root;
    for (const [prefix, uri] of Object.entries(NAMESPACES)) {
      const existing = declared.match(new RegExp(`xmlns:${prefix}="([^"]*)"`));
      if (existing && existing[1] !== uri) {
        throw new Error(`the prefix ${prefix} is bound to ${existing[1]}, expected ${uri}`);
      }
      if (!existing) {
        declared = declared.replace(/\s*(\/?>)$/, ` xmlns:${prefix}="${uri}"$1`);
      }
    }
    return declared;
  });
}

/** Every .bpmn of the repository: the shipped processes, the examples in docs/, any added later. */
function defaultFiles() {
  const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const skipped = new Set(['.git', 'target', 'node_modules']);
  const found = [];
  const visit = dir => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !skipped.has(entry.name)) {
        visit(join(dir, entry.name));
      } else if (entry.isFile() && entry.name.endsWith('.bpmn')) {
        found.push(join(dir, entry.name));
      }
    }
  };
  visit(repository);
  return found.sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.length > 2 ? process.argv.slice(2) : defaultFiles();
  let failed = false;
  for (const file of files) {
    try {
      const before = readFileSync(file, 'utf8');
      const after = await layoutFile(before);
      writeFileSync(file, after);
      console.log(after === before ? 'unchanged ' : 'laid out  ', file);
    } catch (e) {
      failed = true;
      console.error(`${file}: ${e.message}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}
