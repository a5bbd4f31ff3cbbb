import CalendarModel

extension Array where Element == Diagnostic {
    /// The diagnostics, those that name no file said to be about `file`.
    package func located(in file: String) -> [Diagnostic] {
        map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.location.file = diagnostic.location.file ?? file
            return diagnostic
        }
    }
}
