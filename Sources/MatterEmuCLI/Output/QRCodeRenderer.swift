internal import CQREncode

/// Draws a QR code in the terminal with UTF-8 half blocks (two module rows per text line), through
/// libqrencode. Like `qrencode -t UTF8`, the glyphs draw the light modules, for the usual light text
/// on a dark background; a quiet zone of two modules surrounds the symbol.
enum QRCodeRenderer {
    /// The symbol's modules, row by row (true: dark), and its width; nil when libqrencode cannot encode `text`.
    static func modules(_ text: String) -> (width: Int, dark: [Bool])? {
        // QR_MODE_8 + case-sensitive lets libqrencode pick alphanumeric segments for the base38 text.
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        // Bit 0 of each byte is set for a dark module.
        return (width, (0..<width * width).map { data[$0] & 1 == 1 })
    }

    /// The symbol as an SVG image (dark modules on white, a quiet zone of four modules), one path, for
    /// the dashboard; nil when libqrencode cannot encode `text`.
    static func svg(_ text: String) -> String? {
        guard let (width, dark) = modules(text) else { return nil }
        let quiet = 4
        let size = width + 2 * quiet
        var path = ""
        for y in 0..<width {
            for x in 0..<width where dark[y * width + x] { path += "M\(x + quiet) \(y + quiet)h1v1h-1z" }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" shape-rendering="crispEdges">\
            <rect width="\(size)" height="\(size)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// The drawing, or nil when libqrencode cannot encode `text`.
    static func render(_ text: String) -> String? {
        guard let (width, dark) = modules(text) else { return nil }
        let quiet = 2
        let size = width + 2 * quiet
        func isDark(_ x: Int, _ y: Int) -> Bool {
            let mx = x - quiet
            let my = y - quiet
            guard mx >= 0, my >= 0, mx < width, my < width else { return false }
            return dark[my * width + mx]
        }
        var lines: [String] = []
        var y = 0
        while y < size {
            var line = ""
            for x in 0..<size {
                let top = !isDark(x, y)
                let bottom = y + 1 < size ? !isDark(x, y + 1) : false
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
            y += 2
        }
        return lines.joined(separator: "\n")
    }
}
