import Foundation

/// Waits (at most `seconds`, a hang guard) until `condition` holds; whether it did. Attributes follow
/// the device through the home's subscription, so a change made by a group command (or by another
/// trait) arrives a moment later.
func eventually(_ seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}
