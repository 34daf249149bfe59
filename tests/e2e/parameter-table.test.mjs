// The parameter table (src/params/table.rs, generated into www/lib/parameters.js) drives
// the page's fields, the <xpbd-cloth> element's attributes, the mountCloth
// options, the Simulation's properties and the TypeScript types: every entry is
// checked in each of them, so a parameter added to the table shows up
// everywhere or this test fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PARAMETERS } from '../../www/lib/parameters.js';
import { PAGE_DEFAULTS } from '../../www/demo/page-defaults.js';
import { ROOT, RESULTS, openPage, useBrowserAndServer, waitForTime } from './helpers.mjs';

let browser;
let server;

useBrowserAndServer((launched, served) => {
  browser = launched;
  server = served;
});

/** A valid value other than the default, from the parameter's rule. */
function otherValue({ rule, defaultValue }) {
  switch (rule.kind) {
    case 'flag':
      return !defaultValue;
    case 'oneOf':
      return rule.values.find((value) => value !== defaultValue);
    case 'offOrAbove':
      return defaultValue === 0 ? Math.min(rule.above + 1, rule.max) : 0;
    default: {
      const candidate = rule.kind === 'whole' ? defaultValue + 1 : defaultValue * 1.5 || rule.max / 2;
      return candidate <= rule.max ? candidate : rule.min;
    }
  }
}

/** The attribute text for a value (a flag is present or "false"). */
const attributeText = (value) => (typeof value === 'boolean' ? (value ? '' : 'false') : String(value));

describe('the parameter table', () => {
  it('is complete: every entry has a name, attribute, label, meaning, rule and a default its rule accepts', () => {
    assert.ok(PARAMETERS.length >= 16, `${PARAMETERS.length} parameters`);
    for (const parameter of PARAMETERS) {
      for (const key of ['name', 'attribute', 'label', 'meaning', 'type', 'appliesOn']) {
        assert.ok(parameter[key], `${parameter.name}: ${key}`);
      }
      assert.equal(typeof parameter.defaultValue, parameter.type, `${parameter.name}: default's type`);
      assert.notDeepEqual(otherValue(parameter), parameter.defaultValue, `${parameter.name}: has a second value`);
    }
  });

  it('drives the demo page: one field per grouped parameter, with its label, unit, meaning and default', async () => {
    const { page, context } = await openPage(browser, server.url + 'index.html');
    try {
      await waitForTime(page, 'window.clothDemo', 0);
      const fields = await page.evaluate((names) => names.map((name) => {
        const element = document.getElementById(name);
        if (!element) return null;
        return {
          name,
          tag: element.tagName.toLowerCase(),
          type: element.type,
          value: element.type === 'checkbox' ? element.checked : element.value,
          label: document.querySelector(`label[for="${name}"]`)?.textContent ?? '',
          title: element.title,
          group: element.closest('[data-parameter-group]')?.dataset.parameterGroup ?? '',
          errorLine: Boolean(document.getElementById(`${name}-error`)),
          values: element instanceof HTMLSelectElement ? Array.from(element.options, (option) => option.value) : null,
        };
      }), PARAMETERS.map((p) => p.name));
      for (const [k, parameter] of PARAMETERS.entries()) {
        const field = fields[k];
        if (!parameter.group) {
          // no generated field; the page's own control (Speed, in the toolbar) offers the table's values
          if (field) {
            assert.equal(field.tag, 'select', `${parameter.name}: the page's own control is a select`);
            assert.deepEqual(field.values, parameter.rule.values, `${parameter.name}: it offers the table's values, in order`);
            assert.equal(field.group, '', `${parameter.name}: outside the generated fields`);
          }
          continue;
        }
        assert.ok(field, `${parameter.name} has a field`);
        assert.equal(field.group, parameter.group, `${parameter.name}: fieldset`);
        assert.ok(field.label.startsWith(parameter.label), `${parameter.name}: label "${field.label}"`);
        if (parameter.unit) assert.ok(field.label.includes(parameter.unit), `${parameter.name}: unit in "${field.label}"`);
        assert.equal(field.title, parameter.meaning, `${parameter.name}: meaning as tooltip`);
        assert.ok(field.errorLine, `${parameter.name}: error line`);
        // the page starts a few values otherwise (www/demo/page-defaults.js)
        const start = Object.hasOwn(PAGE_DEFAULTS, parameter.name) ? PAGE_DEFAULTS[parameter.name] : parameter.defaultValue;
        const expected = parameter.type === 'boolean' ? start : String(start);
        assert.equal(field.value, expected, `${parameter.name}: default shown`);
        const tag = parameter.rule.kind === 'oneOf' ? 'select' : 'input';
        assert.equal(field.tag, tag, `${parameter.name}: control`);
      }
      // the controller's options are the table's defaults, but for the page's own starting values
      const options = await page.evaluate(() => window.clothDemo.options);
      for (const { name, defaultValue } of PARAMETERS) {
        const start = Object.hasOwn(PAGE_DEFAULTS, name) ? PAGE_DEFAULTS[name] : defaultValue;
        assert.deepEqual(options[name], start, `options.${name}`);
      }
    } finally {
      await context.close();
    }
  });

  it('drives the element, mountCloth and the Simulation: every attribute and option applies', async () => {
    const { page, context, console: log } = await openPage(browser, server.url + 'www/embed/');
    try {
      await waitForTime(page, '#element-cloth', 0);
      const cases = PARAMETERS.map((parameter) => ({
        name: parameter.name,
        attribute: parameter.attribute,
        appliesOn: parameter.appliesOn,
        value: otherValue(parameter),
        text: attributeText(otherValue(parameter)),
      }));
      const results = await page.evaluate(async (list) => {
        const element = document.querySelector('#element-cloth');
        const observed = element.constructor.observedAttributes;
        const out = [];
        for (const c of list) {
          element.setAttribute(c.attribute, c.text);
          await new Promise((done) => setTimeout(done, 30)); // restarts are batched per task
          const controller = element.controller;
          out.push({
            name: c.name,
            observed: observed.includes(c.attribute),
            option: controller.options[c.name],
            simulation: c.appliesOn === 'simulation' ? controller.simulation[c.name] : undefined,
          });
        }
        return out;
      }, cases);
      for (const [k, c] of cases.entries()) {
        const result = results[k];
        assert.ok(result.observed, `${c.attribute} is an observed attribute`);
        assert.deepEqual(result.option, c.value, `attribute ${c.attribute}="${c.text}" sets options.${c.name}`);
        if (c.appliesOn === 'simulation') assert.deepEqual(result.simulation, c.value, `Simulation.${c.name}`);
      }
      assert.deepEqual(log.problems().filter((p) => !p.includes('warning')), [], 'no errors');
    } finally {
      await context.close();
    }
  });

  it('drives the types: ParameterValues has every name with its value type, and nothing else', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    assert.ok(existsSync(tsc), 'typescript is a dev dependency: run npm ci');
    const dir = join(RESULTS, 'parameter-types');
    mkdirSync(dir, { recursive: true });
    const values = Object.fromEntries(PARAMETERS.map((p) => [p.name, otherValue(p)]));
    const attributes = PARAMETERS.map((p) => JSON.stringify(p.attribute)).join(', ');
    const source = (extra) => `import type { ParameterValues, ElementAttribute } from '${join(ROOT, 'www', 'lib', 'parameters.js')}';
const all: Required<ParameterValues> = ${JSON.stringify(values)};
const attributes: ElementAttribute[] = [${attributes}];
${extra}
export { all, attributes };
`;
    const compile = (file, text) => {
      writeFileSync(join(dir, file), text);
      return spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022',
        '--moduleResolution', 'bundler', '--allowImportingTsExtensions', join(dir, file)], { encoding: 'utf8' });
    };
    const ok = compile('ok.ts', source(''));
    assert.equal(ok.status, 0, `every table entry type-checks:\n${ok.stdout}${ok.stderr}`);
    const unknown = compile('unknown.ts', source("const wrong: ParameterValues = { ...all, notAParameter: 1 };"));
    assert.notEqual(unknown.status, 0, 'an unknown parameter name is a type error');
    const typed = PARAMETERS.find((p) => p.type === 'number');
    const wrongType = compile('wrong-type.ts', source(`const wrong: ParameterValues = { ...all, ${typed.name}: 'text' };`));
    assert.notEqual(wrongType.status, 0, `a string for ${typed.name} is a type error`);
  });
});
