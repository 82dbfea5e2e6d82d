/**
 * Shell: fails when the checkout at `$1` holds a symbolic link that leads out of it. Such a link
 * would lead a build context, a Dockerfile or a bind mount through it to the server's own files
 * (other deployments' `.env`, the engine's socket), past every check of the text of a path. Links
 * that stay inside the repository are common and kept. `.git` is git's own and not looked in.
 */
export const REFUSE_LINKS_OUT = `root=$(realpath -e -- "$1") || exit 1
out=$(find "$root" -path "$root/.git" -prune -o -type l -exec sh -c '
  root=$1; shift
  for link; do
    case $(realpath -m -- "$link") in "$root"|"$root"/*) ;; *) echo out; exit 0 ;; esac
  done' slipway "$root" {} + | head -n 1)
if [ -n "$out" ]; then
  echo 'the commit holds a symbolic link that leads out of the repository: refused' >&2
  exit 1
fi`;
