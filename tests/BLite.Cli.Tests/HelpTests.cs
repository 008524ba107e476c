namespace BLite.Cli.Tests;

public class HelpTests
{
    private static readonly string[] _commands = ["info", "collections", "indexes", "stats", "find", "export", "import", "check", "checkpoint", "compact", "upgrade"];

    [Fact]
    public void Global_help_lists_every_command_and_the_exit_codes()
    {
        var result = BliteProcess.Run("--help");

        CliAssert.Succeeded(result);
        Assert.StartsWith("blite - ", result.Stdout);
        foreach (var command in _commands)
        {
            Assert.Contains(result.StdoutLines, line => line.StartsWith("  " + command + " ", StringComparison.Ordinal));
        }

        Assert.Contains("Exit codes:", result.Stdout);
        Assert.Contains("  0  success", result.Stdout);
        Assert.Contains("  1  usage error", result.Stdout);
        Assert.Contains("  2  damage found", result.Stdout);
        Assert.Contains("  3  other error", result.Stdout);
    }

    [Fact]
    public void Every_command_has_help_with_its_usage_line()
    {
        foreach (var command in _commands)
        {
            var result = BliteProcess.Run(command, "--help");

            CliAssert.Succeeded(result);
            Assert.StartsWith($"Usage: blite {command} <database>", result.Stdout);
            Assert.Contains("-h, --help", result.Stdout);
        }
    }

    [Fact]
    public void Help_command_shows_a_commands_help()
    {
        var result = BliteProcess.Run("help", "find");

        CliAssert.Succeeded(result);
        Assert.Contains("--sort <fields>", result.Stdout);
        Assert.Contains("--limit <n>", result.Stdout);
    }
}
