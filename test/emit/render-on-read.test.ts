import { describe, expect, it } from 'vitest';
import { plan, renderPlanned, renderPlannedOnRead } from '../../src/emit/index.js';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { syntheticElement } from '../helpers/folder-states.mjs';

const SOURCE = { baseUrl: 'https://schema.example.com/api', query: { cmd: 'getmsgtypes' } };

describe('renderPlannedOnRead (the change set reads each text once and lets it go)', () => {
  it('renders a file when its text is read, keeps no text (each read renders again), and gives the texts renderPlanned gives', async () => {
    const fetched = parseListing([0, 1, 2].map((i) => syntheticElement(i, 0)), { origin: 'test' }).descriptors;
    const files = await plan({ messages: fetched, source: SOURCE }, {});
    let renders = 0;
    const counted = files.map((file) => ({ ...file, render: () => (renders++, file.render()) }));
    const lazy = await renderPlannedOnRead(counted);
    expect(renders).toBe(0);
    expect(lazy.map((file) => file.path)).toEqual((await renderPlanned(files)).map((file) => file.path));
    const texts = lazy.map((file) => file.text);
    expect(renders).toBe(files.length);
    expect(lazy.map((file) => file.text)).toEqual(texts);
    expect(renders).toBe(2 * files.length);
    expect(texts).toEqual((await renderPlanned(files)).map((file) => file.text));
  });
});
