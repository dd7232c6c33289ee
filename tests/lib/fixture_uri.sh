# fixture_uri.sh -- the URI of the test server a SERVER test talks to: LAYOUTLAB_TEST_URI (a real mongod
# given by hand), else the first line of LAYOUTLAB_TEST_URI_FILE (written by ctest's server fixture).
# Sourced, not run:
#
#   . "$(dirname "$0")/../lib/fixture_uri.sh"
#   URI=$(fixture_uri NAME) || exit 1      # NAME: the test, for the message when there is none
#
# No server is a failure of the test (the fixture starts one), never a skip.

# fixture_uri -- print the URI, or say why there is none on stderr and return 1.
fixture_uri() {
  local uri="${LAYOUTLAB_TEST_URI:-}"
  if [ -z "$uri" ] && [ -n "${LAYOUTLAB_TEST_URI_FILE:-}" ] && [ -s "$LAYOUTLAB_TEST_URI_FILE" ]; then
    uri=$(head -1 "$LAYOUTLAB_TEST_URI_FILE")
  fi
  if [ -z "$uri" ]; then
    echo "${1:-test}: no test server (LAYOUTLAB_TEST_URI / LAYOUTLAB_TEST_URI_FILE)" >&2
    return 1
  fi
  printf '%s\n' "$uri"
}
