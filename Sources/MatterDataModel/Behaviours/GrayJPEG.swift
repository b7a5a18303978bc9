/// The picture an emulated camera's snapshot carries: a baseline JPEG (ITU-T T.81) of one 8×8 block of mid grey,
/// written from its segments: one quantisation table of ones, one component, one DC and one AC Huffman table of a
/// single one-bit code each (DC difference category 0, end of block), and the scan "0 0" padded with ones. A
/// real decoder shows it; no media is encoded beyond it.
enum GrayJPEG {
    static let bytes: [UInt8] = {
        var out: [UInt8] = [0xFF, 0xD8]  // SOI
        func segment(_ marker: UInt8, _ body: [UInt8]) {
            let length = body.count + 2
            out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
        }
        segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))  // DQT: table 0, 8-bit, all ones
        segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])  // SOF0: 8-bit, 8×8, 1 component (id 1, 1×1, table 0)
        let oneCode = [UInt8(1)] + [UInt8](repeating: 0, count: 15)  // one code of length 1
        segment(0xC4, [0x00] + oneCode + [0x00])  // DHT: DC table 0, the value 0 (category 0)
        segment(0xC4, [0x10] + oneCode + [0x00])  // DHT: AC table 0, the value 0x00 (end of block)
        segment(0xDA, [1, 1, 0x00, 0, 63, 0])  // SOS: component 1 with tables 0/0, spectral 0...63
        out += [0x3F]  // DC "0", EOB "0", padded with ones
        out += [0xFF, 0xD9]  // EOI
        return out
    }()
}
