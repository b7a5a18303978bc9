import MatterTestSupport
import Testing

@Suite("CLI grammar: help, usage errors, exit codes")
struct CLIGrammarTests {
    @Test func topLevelHelpListsCommandsAndExitCodes() throws {
        let result = try ProcessRunner.runMatterEmu(["--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("payload parse"))
        #expect(result.stdout.contains("payload generate"))
        #expect(result.stdout.contains("exit codes:"))
    }

    @Test func commandHelpListsItsOptions() throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "generate", "--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("--passcode"))
        #expect(result.stdout.contains("--discriminator"))
    }

    @Test(arguments: [["device"], ["fleet"]])
    func deviceAndFleetHelpOfferTheProbingPath(command: [String]) throws {
        let result = try ProcessRunner.runMatterEmu(command + ["--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("--probe"))
        #expect(result.stdout.contains("raw records"))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["payload", "parse", "--bogus", "MT:-24J0AFN00KA0648G00"], "unknown option '--bogus'"),
        (["payload", "generate", "--passcode"], "option '--passcode' needs a value"),
        (["payload", "parse"], "missing argument <code>"),
        (["payload", "parse", "34970112332", "extra"], "unexpected argument 'extra'"),
        (["payload", "generate", "--discriminator", "lots"], "--discriminator expects a number"),
    ])
    func usageErrorsExitTwoWithAMessage(arguments: [String], message: String) throws {
        let result = try ProcessRunner.runMatterEmu(arguments)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains(message))
        #expect(result.stdout.isEmpty)
    }

    @Test func usageErrorWithJSONPrintsAnErrorDocument() throws {
        let result = try ProcessRunner.runMatterEmu(["payload", "parse", "--json", "--bogus", "x"])
        #expect(result.exitCode == 2)
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["exitCode"] as? Int == 2)
    }

    @Test("a bare command group prints its usage on stderr and exits 2; with --json the error document")
    func bareGroup() throws {
        let text = try ProcessRunner.runMatterEmu(["onoff"])
        #expect(text.exitCode == 2)
        #expect(text.stdout.isEmpty)
        #expect(text.stderr.contains("usage: matter-emu onoff <command>"))
        #expect(text.stderr.contains("onoff toggle"))
        let json = try ProcessRunner.runMatterEmu(["pairing", "--json"])
        #expect(json.exitCode == 2)
        let error = try #require(try json.json()["error"] as? [String: Any])
        #expect(error["exitCode"] as? Int == 2)
        #expect((error["message"] as? String)?.contains("'pairing' needs one of the commands") == true)
        #expect(try ProcessRunner.runMatterEmu(["onoff", "--help"]).exitCode == 0)
    }

    @Test("--version prints the version, as text or JSON")
    func version() throws {
        let text = try ProcessRunner.runMatterEmu(["--version"])
        #expect(text.exitCode == 0)
        #expect(text.stdout.hasPrefix("matter-emu 0."))
        let json = try ProcessRunner.runMatterEmu(["--version", "--json"])
        #expect(json.exitCode == 0)
        let document = try json.json()
        #expect(document["name"] as? String == "matter-emu")
        #expect((document["version"] as? String)?.isEmpty == false)
        #expect(try ProcessRunner.runMatterEmu(["--version", "extra"]).exitCode == 2)
    }
}
