import MatterTLV

/// Splits reports into ReportData messages whose payload fits `budget` bytes, on AttributeReportIB
/// boundaries. An attribute whose list does not fit even an empty message is sent the way the SDK
/// does: the path with an empty array (replace all), then one `ListIndex = null` entry per item
/// (append), spread over as many messages as needed. An item that alone exceeds the budget still goes,
/// alone.
struct ReportChunker {
    /// Largest TLV payload per message, bytes.
    let budget: Int

    func chunk(attributeReports: [AttributeReportIB], eventReports: [EventReportIB], subscriptionID: UInt32?)
        -> [ReportDataMessage]
    {
        let overhead =
            ReportDataMessage(
                subscriptionID: subscriptionID, moreChunkedMessages: true,
                suppressResponse: true
            ).encode().count + 6
        var messages: [ReportDataMessage] = []
        var current = ReportDataMessage(subscriptionID: subscriptionID)
        var size = overhead
        func flush() {
            messages.append(current)
            current = ReportDataMessage(subscriptionID: subscriptionID)
            size = overhead
        }
        for report in attributeReports.flatMap({ split($0, overhead: overhead) }) {
            let length = Self.encodedSize(report)
            if size + length > budget, !current.attributeReports.isEmpty || !current.eventReports.isEmpty { flush() }
            current.attributeReports.append(report)
            size += length
        }
        for report in eventReports {
            let length = Self.encodedSize(report)
            if size + length > budget, !current.attributeReports.isEmpty || !current.eventReports.isEmpty { flush() }
            current.eventReports.append(report)
            size += length
        }
        messages.append(current)
        for index in messages.indices.dropLast() { messages[index].moreChunkedMessages = true }
        return messages
    }

    /// The report itself, or, for a list too big for any message, replace-all plus appends.
    private func split(_ report: AttributeReportIB, overhead: Int) -> [AttributeReportIB] {
        guard overhead + Self.encodedSize(report) > budget, case .data(let data) = report,
            case .array(let items) = data.data, data.path.listIndex == nil
        else { return [report] }
        var appendPath = data.path
        appendPath.listIndex = .null
        return [.data(AttributeDataIB(dataVersion: data.dataVersion, path: data.path, data: .array([])))]
            + items.map { .data(AttributeDataIB(dataVersion: data.dataVersion, path: appendPath, data: $0.value)) }
    }

    static func encodedSize<T: TLVEncodable>(_ value: T) -> Int {
        var writer = TLVWriter(capacity: 64)
        writer.put(value)
        return writer.bytes.count
    }
}
