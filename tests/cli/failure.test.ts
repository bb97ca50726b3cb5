/**
 * The CLI's last word on a thrown error (cli/failure.ts): a TlabError by its kind, a file-system error that no
 * boundary put in words as one line with the path and the cause (exit 2) — never the internal-error path (exit
 * 70, with a stack), which is kept for bugs.
 */
import { describe, expect, it } from 'vitest';
import { TlabError } from '../../electron/engine/errors.js';
import { FileError } from '../../electron/engine/io/fs-errors.js';
import { describeFailure } from '../../electron/cli/failure.js';

function errno(code: string, syscall: string, path?: string, dest?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: raw, ${syscall}`), {
    code,
    syscall,
    errno: -1,
    ...(path ? { path } : {}),
    ...(dest ? { dest } : {}),
  });
}

describe('describeFailure', () => {
  it.each([
    [
      'EFBIG on copyfile',
      errno('EFBIG', 'copyfile', '/cache/program.so', '/tmp/run/x.so'),
      'cannot copyfile /cache/program.so -> /tmp/run/x.so: the file is larger than this process may write (its file-size limit, ulimit -f) or than the file system allows',
    ],
    ['ENOSPC on write', errno('ENOSPC', 'write'), 'cannot write: no space left on the device'],
    ['EDQUOT on open', errno('EDQUOT', 'open', '/home/u/r.json'), 'cannot open /home/u/r.json: the disk quota is used up'],
    ['EMFILE on open', errno('EMFILE', 'open', '/x'), 'cannot open /x: too many open files in this process (ulimit -n)'],
    ['EACCES on mkdir', errno('EACCES', 'mkdir', '/root/x'), 'cannot mkdir /root/x: permission denied'],
    ['EROFS on open', errno('EROFS', 'open', '/ro/x'), 'cannot open /ro/x: the file system is read-only'],
    ['EISDIR on open', errno('EISDIR', 'open', '/d'), 'cannot open /d: it is a folder'],
    ['ENOTDIR on stat', errno('ENOTDIR', 'stat', '/f/x'), 'cannot stat /f/x: a part of the path is a file, not a folder'],
    ['ENOENT on open', errno('ENOENT', 'open', '/no/x'), 'cannot open /no/x: no such file or folder'],
    ['EPERM on rename', errno('EPERM', 'rename', '/a', '/b'), 'cannot rename /a -> /b: permission denied'],
  ])('a raw fs error (%s) is one line, exit 2', (_name, err, words) => {
    const { text, code } = describeFailure('profile', err);
    expect(text).toBe(`transient-lab profile: ${words}\n`);
    expect(code).toBe(2);
  });

  it('a FileError is a TlabError: its kind gives the exit code', () => {
    const { text, code } = describeFailure('profile', new FileError('build', 'write', '/tmp/run/x.so', errno('EFBIG', 'write')));
    expect(text).toBe(
      'transient-lab profile: cannot write /tmp/run/x.so: the file is larger than this process may write (its file-size limit, ulimit -f) or than the file system allows\n',
    );
    expect(code).toBe(5);
  });

  it('a TlabError keeps its form; anything else is an internal error with its stack (70)', () => {
    expect(describeFailure('report', new TlabError('input', 'not a result', { file: 'r.json' }))).toEqual({
      text: 'transient-lab report: r.json: not a result\n',
      code: 3,
    });
    const bug = describeFailure('report', new TypeError('x is undefined'));
    expect(bug.code).toBe(70);
    expect(bug.text).toMatch(/^transient-lab report: internal error: TypeError: x is undefined\n\s+at /);
  });
});
