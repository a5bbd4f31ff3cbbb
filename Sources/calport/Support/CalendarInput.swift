import CalendarConversion
import CalendarModel

extension CalendarInput {
    /// One opened input read into the model, whatever its format; refused past `limits.maximumInputSize`.
    static func read(_ input: InputFile, as format: InputFile.Format, limits: InputLimits) -> (
        document: CalendarDocument, diagnostics: [Diagnostic], dropped: Int
    ) {
        guard let bytes = input.completeBytes(limit: limits.maximumInputSize) else {
            return (CalendarDocument(), [limits.inputTooLarge(input.name)], 1)
        }
        return read(bytes, file: input.name, as: format, limits: limits)
    }
}
