import MatterCore
import MatterTLV

/// Reassembles ReportData chunks into one ``ReadResult``: a list sent as replace-all (the path with an
/// array) followed by appends (`ListIndex = null`) becomes one array again.
struct ReportAssembler {
    private var order: [ConcreteAttributePath] = []
    private var reports: [ConcreteAttributePath: AttributeReport] = [:]
    private var events: [EventReportIB] = []

    mutating func add(_ message: ReportDataMessage) {
        for report in message.attributeReports { add(report) }
        events += message.eventReports
    }

    private mutating func add(_ report: AttributeReportIB) {
        guard let path = report.path.concrete else { return }
        if reports[path] == nil { order.append(path) }
        switch report {
        case .status(let status):
            reports[path] = AttributeReport(path: path, dataVersion: nil, result: .failure(status.status))
        case .data(let data):
            switch data.path.listIndex {
            case nil:
                reports[path] = AttributeReport(path: path, dataVersion: data.dataVersion, result: .success(data.data))
            case .null:
                var items: [TLVElement] = []
                if case .success(.array(let existing))? = reports[path]?.result { items = existing }
                items.append(TLVElement(data.data))
                reports[path] = AttributeReport(
                    path: path, dataVersion: data.dataVersion, result: .success(.array(items)))
            case .index:
                // Item replacement is not used by Matter 1.4 servers.
                break
            }
        }
    }

    var result: ReadResult {
        ReadResult(attributes: order.compactMap { reports[$0] }, events: events)
    }
}
