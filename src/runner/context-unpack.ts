/**
 * Checks the copied context against the SHA-256 recorded at upload, then unpacks it in the
 * deployment's directory and removes the tarball. Its entries were checked at upload (files and
 * directories only, nothing outside), but by another reader than GNU tar, and two tar readers
 * need not agree (a global PAX header one honours and the other not can hide an entry): so what
 * GNU tar made is checked again here, and a link, device, pipe or socket fails the step before
 * anything reads the directory.
 */
export const UNPACK_CONTEXT = `cd "$1" || exit
printf '%s  %s\\n' "$2" context.tar.gz | sha256sum -c - || exit
tar -xzf context.tar.gz --no-same-owner --no-same-permissions && rm -f context.tar.gz || exit
if [ -n "$(find . \\( -type l -o -type b -o -type c -o -type p -o -type s \\) -print | head -n 1)" ]; then
  find . \\( -type l -o -type b -o -type c -o -type p -o -type s \\) -delete
  echo 'the build context unpacked a link or a special file: refused' >&2
  exit 1
fi`;
