using System.Diagnostics;
using System.Text;

namespace BLite.Cli.Tests.Studio;

/// <summary>
/// A real <c>blite studio</c> process, started as a user starts it, read until it prints its
/// URL, and stopped with SIGTERM (the same clean shutdown as Ctrl-C: both stop the host).
/// </summary>
internal sealed class StudioProcess : IDisposable
{
    private static readonly TimeSpan StartLimit = TimeSpan.FromSeconds(60);
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly Task<string> _error;

    private StudioProcess(Process process, Uri launchUrl)
    {
        _process = process;
        LaunchUrl = launchUrl;
        _error = process.StandardError.ReadToEndAsync();
    }

    public Uri LaunchUrl { get; }

    public Uri BaseAddress => new(LaunchUrl.GetLeftPart(UriPartial.Authority) + "/");

    public string Token => LaunchUrl.Query["?token=".Length..];

    public static Task<StudioProcess> StartAsync(params string[] args) =>
        StartAsync(new Dictionary<string, string>(), args);

    /// <summary>Starts the studio with these variables added to the test's environment.</summary>
    public static async Task<StudioProcess> StartAsync(IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        start.ArgumentList.Add(BliteProcess.ExecutablePath);
        start.ArgumentList.Add("studio");
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException("dotnet could not be started.");
        using var timeout = new CancellationTokenSource(StartLimit);
        var printed = new StringBuilder();
        while (true)
        {
            var line = await process.StandardOutput.ReadLineAsync(timeout.Token);
            if (line is null)
            {
                var error = await process.StandardError.ReadToEndAsync();
                process.WaitForExit();
                process.Dispose();
                Assert.Fail($"blite studio exited with {process.ExitCode} before printing its URL:\n{printed}\n{error}");
            }

            printed.AppendLine(line);
            if (line.StartsWith("http://", StringComparison.Ordinal))
            {
                var studio = new StudioProcess(process, new Uri(line.Trim()));
                studio._output.Append(printed);
                return studio;
            }
        }
    }

    /// <summary>
    /// Reads standard output up to the first line that matches and returns it. A program the
    /// studio starts inherits that output, so this also sees what such a program prints.
    /// </summary>
    public async Task<string> ReadUntilAsync(Func<string, bool> matches)
    {
        using var timeout = new CancellationTokenSource(StartLimit);
        while (true)
        {
            var line = await _process.StandardOutput.ReadLineAsync(timeout.Token);
            Assert.True(line is not null, $"blite studio's output ended without the expected line:\n{_output}");
            _output.AppendLine(line);
            if (matches(line))
            {
                return line;
            }
        }
    }

    /// <summary>Sends SIGTERM and waits for the exit; returns the exit code, everything printed, and standard error.</summary>
    public (int ExitCode, string Output, string Error) Stop()
    {
        using (var kill = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            kill.WaitForExit();
        }

        Assert.True(_process.WaitForExit(StartLimit), "blite studio did not stop after SIGTERM");
        _output.Append(_process.StandardOutput.ReadToEnd());
        return (_process.ExitCode, _output.ToString(), _error.Result);
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }

        _process.Dispose();
    }
}
