import Foundation

/// When and how long to wait before sending a request again.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maximumAttempts: Int
    /// The first backoff in seconds; it doubles with each attempt, up to `maximumDelay`.
    public var baseDelay: Double
    /// The longest wait in seconds between attempts, for backoff and for a server's `Retry-After` alike.
    public var maximumDelay: Double

    /// A policy of `maximumAttempts` attempts in all, waits starting near `baseDelay` seconds and
    /// doubling up to `maximumDelay` seconds.
    public init(maximumAttempts: Int = 8, baseDelay: Double = 0.5, maximumDelay: Double = 30) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// Statuses Graph documents as transient: throttled, unavailable, gateway timeout.
    public static let retryableStatuses: Set<Int> = [429, 503, 504]

    /// Whether a response with `status` should be sent again.
    public func isRetryable(status: Int) -> Bool { Self.retryableStatuses.contains(status) }

    /// Seconds to wait before attempt `attempt + 1`: the server's `Retry-After` when it gave one,
    /// else exponential backoff with full jitter so that parallel clients spread out.
    public func delay(afterAttempt attempt: Int, retryAfter: String?) -> Double {
        if let retryAfter, let seconds = Self.seconds(retryAfter: retryAfter) {
            return min(max(seconds, 0), maximumDelay)
        }
        let ceiling = min(baseDelay * pow(2, Double(max(attempt - 1, 0))), maximumDelay)
        return Double.random(in: (ceiling / 2)...ceiling)
    }

    /// `Retry-After` as seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3).
    static func seconds(retryAfter: String) -> Double? {
        let text = retryAfter.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { $0.timeIntervalSinceNow }
    }
}
