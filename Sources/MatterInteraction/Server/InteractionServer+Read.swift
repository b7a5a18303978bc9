import MatterCore
import MatterTransport

extension InteractionServer {
    /// ReadRequest → ReportData chunks, each but the last answered by a StatusResponse; the last one
    /// carries SuppressResponse. A read that fails as a whole gets a StatusResponse instead.
    func handleRead(_ message: ReceivedMessage, exchange: Exchange, subject: SubjectDescriptor) {
        statistics.readRequests += 1
        guard let request = try? ReadRequestMessage(decoding: message.payload) else {
            return respond(.invalidAction, on: exchange)
        }
        guard !(request.attributeRequests.isEmpty && request.eventRequests.isEmpty),
            processor.isValid(readPaths: request.attributeRequests, eventPaths: request.eventRequests)
        else { return respond(.invalidAction, on: exchange) }
        let context = InteractionContext(
            subject: subject, session: message.session,
            isFabricFiltered: request.isFabricFiltered)
        let attributes = processor.readReports(
            request.attributeRequests, filters: request.dataVersionFilters,
            context: context)
        let events = processor.eventReports(
            request.eventRequests, minimum: Self.eventMinimum(request.eventFilters),
            context: context)
        var reports = chunker.chunk(attributeReports: attributes, eventReports: events.reports, subscriptionID: nil)
        reports[reports.count - 1].suppressResponse = true
        transmit(
            makeReportTransmission(exchange, reports: reports, finalAwaitsStatus: false) { [weak self] result in
                if case .failure(let error) = result { self?.log.debug("\(exchange): read ended: \(error)") }
                exchange.close()
            })
    }

    /// The lowest event number the filters ask for (0 without filters).
    static func eventMinimum(_ filters: [EventFilterIB]) -> UInt64 {
        filters.map(\.eventMin).max() ?? 0
    }
}
