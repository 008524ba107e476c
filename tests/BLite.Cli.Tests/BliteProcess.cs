using System.Diagnostics;
using System.Text;

namespace BLite.Cli.Tests;

/// <summary>What one run of the real blite executable printed and returned.</summary>
public sealed record CliResult(int ExitCode, byte[] StdoutBytes, string Stderr)
{
    public string Stdout { get; } = Encoding.UTF8.GetString(StdoutBytes).Replace("\r\n", "\n");

    public string[] StdoutLines => Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);

    public override string ToString() => $"exit {ExitCode}\n--- stdout ---\n{Stdout}\n--- stderr ---\n{Stderr}";
}

/// <summary>
/// Runs the BLite.Cli.dll built beside the test assembly (the project reference copies it) through
/// the same dotnet host that runs the tests, so every test exercises the shipped executable:
/// its argument parsing, exit codes and streams.
/// </summary>
public static class BliteProcess
{
    private static readonly TimeSpan _limit = TimeSpan.FromMinutes(2);

    public static string ExecutablePath { get; } = Path.Combine(AppContext.BaseDirectory, "BLite.Cli.dll");

    public static CliResult Run(params string[] args) => Run(args, workingDirectory: null, standardInput: null);

    public static CliResult Run(string[] args, string? workingDirectory, byte[]? standardInput) =>
        Run(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet", [], args, workingDirectory, standardInput);

    /// <summary>Runs blite with <paramref name="environment"/> added to (or, for a null value, removed from) its environment.</summary>
    public static CliResult RunWith(IReadOnlyDictionary<string, string?> environment, params string[] args) =>
        Run(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet", [], args, workingDirectory: null, standardInput: null, environment);

    /// <summary>Runs blite as <c>launcher launcherArgs... BLite.Cli.dll args...</c>, for a launcher that then starts the dotnet host.</summary>
    public static CliResult RunThrough(string launcher, string[] launcherArgs, string[] args) =>
        Run(launcher, launcherArgs, args, workingDirectory: null, standardInput: null);

    private static CliResult Run(string program, string[] programArgs, string[] args, string? workingDirectory, byte[]? standardInput, IReadOnlyDictionary<string, string?>? environment = null)
    {
        Assert.True(File.Exists(ExecutablePath), $"BLite.Cli.dll was not found at {ExecutablePath}");
        var start = new ProcessStartInfo(program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
            StandardErrorEncoding = Encoding.UTF8,
            WorkingDirectory = workingDirectory ?? AppContext.BaseDirectory,
        };
        foreach (var (name, value) in environment ?? new Dictionary<string, string?>())
        {
            start.Environment[name] = value;
        }

        foreach (var arg in programArgs.Append(ExecutablePath).Concat(args))
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException("dotnet could not be started.");
        var stdout = new MemoryStream();
        var stdoutCopied = process.StandardOutput.BaseStream.CopyToAsync(stdout);
        var stderr = process.StandardError.ReadToEndAsync();
        if (standardInput is not null)
        {
            process.StandardInput.BaseStream.Write(standardInput);
        }

        process.StandardInput.Close();
        if (!process.WaitForExit(_limit))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"blite {string.Join(' ', args)} did not finish within {_limit}");
        }

        process.WaitForExit();
        stdoutCopied.Wait();
        return new CliResult(process.ExitCode, stdout.ToArray(), stderr.Result.Replace("\r\n", "\n"));
    }
}
