namespace BLite.Cli.Tests;

internal static class CliAssert
{
    /// <summary>Exit 0, nothing on stderr.</summary>
    public static void Succeeded(CliResult result)
    {
        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.True(result.Stderr.Length == 0, result.ToString());
    }

    /// <summary>
    /// The error contract: the given non-zero exit code, exactly one line on stderr starting with
    /// "blite: " and containing <paramref name="expected"/>, no stack trace, nothing on stdout.
    /// </summary>
    public static void FailedWithOneLine(CliResult result, int exitCode, string expected)
    {
        Assert.True(result.ExitCode == exitCode, result.ToString());
        var lines = result.Stderr.TrimEnd('\n').Split('\n');
        Assert.True(lines.Length == 1, result.ToString());
        Assert.StartsWith("blite: ", lines[0]);
        Assert.Contains(expected, lines[0]);
        Assert.DoesNotContain("   at ", result.Stderr);
        Assert.DoesNotContain("Exception", result.Stderr);
        Assert.True(result.Stdout.Length == 0, result.ToString());
    }
}
