// MARK: - EditedLine

/// The line being typed in the ``LineEditor``: its characters, the cursor, and the place in
/// the history that Up and Down walk. Pure state: drawing is the editor's job.
struct EditedLine {
    /// What the editor must do after a key.
    enum Effect {
        case redraw
        case done
        case endOfInput
        case none
    }

    private(set) var characters: [Character] = []
    private(set) var cursor = 0
    private let history: [String]
    /// The history entry shown, `history.count` for the line being typed.
    private var place: Int
    /// The line being typed, kept while Up shows older entries.
    private var draft: [Character] = []

    init(history: [String]) {
        self.history = history
        place = history.count
    }

    var text: String { String(characters) }
    var charactersAfterCursor: Int { characters.count - cursor }

    mutating func apply(_ key: LineEditor.Key) -> Effect {
        switch key {
        case .insert(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return .none }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete:
            guard cursor < characters.count else { return .none }
            characters.remove(at: cursor)
        case .endOfInput:
            guard !characters.isEmpty else { return .endOfInput }
            return apply(.delete)
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, characters.count)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .killToStart:
            characters.removeFirst(cursor)
            cursor = 0
        case .killToEnd: characters.removeLast(characters.count - cursor)
        case .up: return show(place - 1)
        case .down: return show(place + 1)
        case .enter: return .done
        case .ignored: return .none
        }
        return .redraw
    }

    /// Shows history entry `index` (or the draft past the newest), cursor at its end.
    private mutating func show(_ index: Int) -> Effect {
        guard (0...history.count).contains(index), index != place else { return .none }
        if place == history.count { draft = characters }
        place = index
        characters = index == history.count ? draft : Array(history[index])
        cursor = characters.count
        return .redraw
    }
}
