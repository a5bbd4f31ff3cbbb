import CalendarModel
import Digests

/// The `transactionId` sent with a POST: derived from the UID (and, for an override, its
/// RECURRENCE-ID), so importing the same file twice lets Graph recognise the second attempt.
public enum GraphTransactionID {
    /// SHA-256 of the UTF-8 key, first 16 bytes as an RFC 9562 version-8 UUID in upper case.
    /// The key is the UID, or `UID` + `/` + the RECURRENCE-ID as a UTC basic-format time
    /// (`20261202T160000Z`) or date (`20261202`) for an override.
    public static func make(uid: String, recurrenceID: String? = nil) -> String {
        withID(uid: uid, recurrenceID: recurrenceID) { String(decoding: $0, as: UTF8.self) }
    }

    /// The transactionId of `event`: of its UID, and of its RECURRENCE-ID for an override.
    static func make(for event: Event) -> String {
        withID(for: event) { String(decoding: $0, as: UTF8.self) }
    }

    /// `make(for:)`'s text lent to `body` from the stack, for a writer that copies it.
    static func withID<Result>(for event: Event, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withID(uid: event.uid, recurrenceID: event.recurrenceID?.time.transactionKey, body)
    }

    private static func withID<Result>(
        uid: String, recurrenceID: String?, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var key = recurrenceID.map { uid + "/" + $0 } ?? uid
        return key.withUTF8 { DerivedIdentifier.withUUID(of: UnsafeRawBufferPointer($0), body) }
    }

    /// A UID for an event that has none, derived from its Graph JSON: the same content gives the
    /// same UID from run to run, different content a different one.
    static func derivedUID(content: JSONValue) -> String {
        DerivedIdentifier.uid(content: JSONWriter().string(content))
    }
}
