import MatterClusters
import MatterCore
import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

@Suite("Report chunking")
struct ChunkingTests {
    func reports(count: Int, listSize: Int) -> [AttributeReportIB] {
        (0..<count).map { index in
            .data(
                AttributeDataIB(
                    dataVersion: 1,
                    path: AttributePathIB(ConcreteAttributePath(1, Fake.testCluster, AttributeID(UInt32(index)))),
                    data: .array((0..<listSize).map { TLVElement(.utf8("item \($0) of \(index)")) })))
        }
    }

    @Test(arguments: [120, 200, 400, 1024])
    func everyChunkFitsAndReassembles(budget: Int) {
        let original = reports(count: 6, listSize: 12)
        let chunks = ReportChunker(budget: budget).chunk(
            attributeReports: original, eventReports: [], subscriptionID: 99)
        for (index, chunk) in chunks.enumerated() {
            var sized = chunk
            sized.suppressResponse = true
            #expect(sized.encode().count <= budget, "chunk \(index) of budget \(budget)")
            #expect(chunk.moreChunkedMessages == (index < chunks.count - 1))
            #expect(chunk.subscriptionID == 99)
        }
        var assembler = ReportAssembler()
        for chunk in chunks { assembler.add(chunk) }
        let expected = original.compactMap { report -> AttributeReport? in
            guard case .data(let data) = report, let path = data.path.concrete else { return nil }
            return AttributeReport(path: path, dataVersion: 1, result: .success(data.data))
        }
        #expect(assembler.result.attributes == expected)
    }

    @Test func bigListIsSplitAsReplaceAllThenAppends() throws {
        let original = reports(count: 1, listSize: 30)
        let chunks = ReportChunker(budget: 200).chunk(attributeReports: original, eventReports: [], subscriptionID: nil)
        let all = chunks.flatMap(\.attributeReports)
        #expect(all.count == 31)
        guard case .data(let first) = all[0] else {
            Issue.record("not data")
            return
        }
        #expect(first.data == .array([]) && first.path.listIndex == nil)
        for report in all.dropFirst() {
            guard case .data(let item) = report else {
                Issue.record("not data")
                return
            }
            #expect(item.path.listIndex == .null)
        }
    }

    @Test func emptyReportIsOneMessage() {
        let chunks = ReportChunker(budget: 1024).chunk(attributeReports: [], eventReports: [], subscriptionID: 7)
        #expect(chunks.count == 1)
        #expect(chunks[0].encode() == [0x15, 0x24, 0x00, 0x07, 0x24, 0xFF, 0x0C, 0x18])
    }
}
