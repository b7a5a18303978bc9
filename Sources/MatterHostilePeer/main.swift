// matter-emu-hostile: a hostile peer for scripts/test-hostile.sh (work in progress).
print("matter-emu-hostile: not built yet")
