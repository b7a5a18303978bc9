"""What every referee driver here shares: one [PASS]/[FAIL] line per check, and the closing line
'N passed, N failed' that scripts/test.sh's suite runner and the wrappers count."""

passed = 0
failed = 0


def check(name, ok, detail=""):
    """Counts and prints one check; returns `ok` so that a driver can stop early on failure."""
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"[{'PASS' if ok else 'FAIL'}] {name} {detail}".rstrip(), flush=True)
    return ok


def summary():
    """Prints the closing line; the exit status: 0 when something was checked and nothing failed."""
    print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 and passed > 0 else 1
