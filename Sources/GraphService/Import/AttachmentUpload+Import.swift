import GraphEvents

extension EventChanger {
    /// Attaches `files` to event `eventID` (the event `label`, of UID `uid`, or one of its
    /// occurrences), each journalled under its key: those an earlier run finished (by the journal
    /// `done`, or, with `checkExisting`, a file of the same name and size already on the event) are
    /// skipped, so a resumed import neither duplicates nor drops one. `complete` is false when a file
    /// may succeed on a later run; a file larger than Graph takes fails for good (its outcome names
    /// the event and the file) and the event stays imported.
    func attachFiles(
        _ files: [(key: String, file: FileToAttach)], of label: String, uid: String, to eventID: String,
        checkExisting: Bool, done: [String: JournalRecord]
    ) async -> (outcomes: [String: ImportOutcome], complete: Bool) {
        guard !files.isEmpty else { return ([:], true) }
        var outcomes: [String: ImportOutcome] = [:]
        var complete = true
        var present: [String: Int] = [:]  // "name\nsize" of the files on the event, counted
        if checkExisting {
            do {
                let listed = try await GraphPager(client: client).all(
                    client.endpoints.mailbox(
                        "/events/\(eventID.urlComponentEncoded)/attachments", query: "$select=id,name,size"))
                for item in listed {
                    let size = item["size"]?.numberValue.map { Int($0) } ?? -1
                    present["\(item["name"]?.stringValue ?? "")\n\(size)", default: 0] += 1
                }
            } catch {
                for (key, _) in files { outcomes[key] = .failed(reason: error.description) }
                return (outcomes, false)
            }
        }
        let uploader = AttachmentUploader(client: client)
        for (key, file) in files {
            if let record = done[key], record.outcome == "created" { continue }
            let identity = "\(file.name)\n\(file.size)"
            if let count = present[identity], count > 0 {
                present[identity] = count - 1
                continue
            }
            do {
                try await journal?.recordIntent("attach file", keys: [key])
                let id = try await uploader.attach(file, to: eventID)
                try await journal?.recordOutcome(key: key, outcome: .created, id: id)
            } catch let error as AttachmentUploadError {
                let reason: String
                switch error {
                case .tooLarge(let size):
                    reason =
                        "the file '\(file.name)' of '\(label)' (UID \(uid)) is \(size) bytes; Graph attaches at most \(AttachmentUploader.maximumSize) (150 MB); the event was imported without it"
                case .invalidBase64:
                    reason = "the file '\(file.name)' of '\(label)' (UID \(uid)) is not valid base64"
                case .service(let failure):
                    reason = "attaching '\(file.name)' to '\(label)': \(failure.description)"
                    complete = false
                }
                outcomes[key] = .failed(reason: reason)
                try? await journal?.recordOutcome(key: key, outcome: .failed(reason: reason), id: nil)
            } catch {
                outcomes[key] = .failed(reason: "attaching '\(file.name)' to '\(label)': \(error)")
                complete = false
            }
        }
        return (outcomes, complete)
    }
}
