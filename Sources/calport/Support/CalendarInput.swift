import CalendarConversion
import CalendarModel
import ICalendar

extension CalendarInput {
    /// One opened input read into the model, whatever its format; refused past `limits.maximumInputSize`.
    /// An iCalendar input read whole already (`isComplete`) has its events read as `reading` says.
    static func read(
        _ input: InputFile, as format: InputFile.Format, limits: InputLimits, reading: EventReading = .whole
    ) -> (document: CalendarDocument, diagnostics: [Diagnostic], dropped: Int, locations: [SourceLocation]) {
        if format == .iCalendar && reading == .listing && input.isComplete,
            let bytes = input.completeBytes(limit: limits.maximumInputSize)
        {
            let result = ICalendarParser(limits: limits.iCalendar).parse(bytes, file: input.name, reading: .listing)
            return (result.document, result.diagnostics, result.droppedComponents, result.eventLocations)
        }
        if format == .iCalendar {
            // Parsed as it is read: its text held whole as well would be a second copy of every inline file.
            let source = SizeLimitedSource(input.source, limit: limits.maximumInputSize)
            let result = ICalendarParser(limits: limits.iCalendar).parse(source, file: input.name)
            guard !source.exceeded.value else { return (CalendarDocument(), [limits.inputTooLarge(input.name)], 1, []) }
            return (result.document, result.diagnostics, result.droppedComponents, result.eventLocations)
        }
        guard let bytes = input.completeBytes(limit: limits.maximumInputSize) else {
            return (CalendarDocument(), [limits.inputTooLarge(input.name)], 1, [])
        }
        return read(bytes, file: input.name, as: format, limits: limits)
    }
}

/// A source that ends once it has handed on more than `limit` bytes, and says so: the bound of an
/// input read whole, kept for one that is parsed as it is read.
private struct SizeLimitedSource: ByteSource {
    /// Shared with the copy the reader takes, so that the caller can ask after the read.
    final class Flag {
        var value = false
    }

    private var source: ContinuedByteSource
    private var left: Int
    let exceeded = Flag()

    init(_ source: ContinuedByteSource, limit: Int) {
        self.source = source
        left = limit
    }

    var remainingByteCount: Int? { source.remainingByteCount }

    mutating func nextChunk() -> [UInt8]? {
        guard !exceeded.value, let chunk = source.nextChunk() else { return nil }
        left -= chunk.count
        if left < 0 { exceeded.value = true }
        return exceeded.value ? nil : chunk
    }
}
