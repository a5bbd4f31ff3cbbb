import Foundation

/// A list that closures running on any thread can append to (prompts shown, waits asked for).
/// `@unchecked`: every access goes through the lock.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var all: [Element] { lock.withLock { elements } }
}
