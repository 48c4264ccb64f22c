import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/ui/custom/templates';

// The custom strategy editor starts from the examples the suite and the CLI run: the same text.

describe('the editor’s templates', () => {
  it.each(TEMPLATES.map((t) => [t.name, t.source]))(
    '%s is examples/strategies/%s verbatim',
    (name, source) => {
      expect(source).toBe(readFileSync(join(__dirname, '../../examples/strategies', name), 'utf8'));
    },
  );
});
