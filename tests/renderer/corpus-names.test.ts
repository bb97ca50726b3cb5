/** The top bar's file name keeps the program's own name whole: the part after the last `__` of a corpus name. */
import { describe, expect, it } from 'vitest';
import { fileNameParts } from '../../renderer/src/app/text/cut.js';

describe("a file's name in the top bar", () => {
  it('keeps the program part of a corpus name whole and lets the path-like start shrink', () => {
    expect(fileNameParts('spcl__dace__tests__sdfg__data__sdfg_reconstruction__cloudsc_simplified@9f8f673.sdfgz')).toEqual([
      { text: 'spcl__dace__tests__sdfg__data__sdfg_reconstruction__' },
      { text: 'cloudsc_simplified@9f8f673.sdfgz', keep: true },
    ]);
    expect(fileNameParts('phschaad__fuzzyflow__tests__npbench_graphs__channel_flow.sdfg').at(-1)).toEqual({
      text: 'channel_flow.sdfg',
      keep: true,
    });
  });

  it('keeps the last 24 characters of a name without a short program part, and short names whole', () => {
    expect(fileNameParts('a_very_long_program_name_without_any_double_underscores.sdfg').at(-1)).toEqual({
      text: 'double_underscores.sdfg'.padStart(24, '_'),
      keep: true,
    });
    expect(fileNameParts('hdiff.sdfg')).toEqual([{ text: 'hdiff.sdfg' }]);
  });
});
