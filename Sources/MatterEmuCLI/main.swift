import MatterCore

StandardError.write("matter-emu: not yet\n")
