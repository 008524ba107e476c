using System.Diagnostics;
using System.Globalization;
using System.Net;
using BLite.Cli.Arguments;
using BLite.Cli.Studio;

namespace BLite.Cli.Commands;

/// <summary>
/// Serves BLite Studio, a web UI over one database, on 127.0.0.1 until Ctrl-C. The printed URL
/// carries a random token; docs/studio.md describes the pages and the security model.
/// </summary>
internal sealed class StudioCommand : Command
{
    public override string Name => "studio";

    public override string Summary => "Browse, query and edit a database in your web browser (a local web UI).";

    public override IReadOnlyList<OptionSpec> Options =>
    [
        new OptionSpec("port", "n", "Listen on this port. Default: a free port."),
        new OptionSpec("read-only", null, "Open the database read-only: no lock is taken, so the studio can look at a database a running application holds; nothing can be changed."),
        new OptionSpec("open", null, "Open the studio in the web browser: the program in $BROWSER if set, else the desktop's default."),
        new OptionSpec("listen", "address", "Listen on this interface instead of 127.0.0.1 (e.g. 0.0.0.0). Anyone who can reach it and has the token can read and change the database."),
    ];

    public override string Details =>
        """
        Prints the studio's URL, which includes a random access token, and serves until Ctrl-C.
        Every request needs the token (the first page load turns it into a cookie); requests whose
        Host header is not this machine's address are refused. See docs/studio.md.

        Examples:
          blite studio shop.blite --open
          blite studio shop.blite --read-only --port 5050
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var port = arguments.NonNegativeInteger("port", 0);
        if (port > IPEndPoint.MaxPort)
        {
            throw new UsageException($"--port must be at most {IPEndPoint.MaxPort}, not {port}.", Name);
        }

        var listen = IPAddress.Loopback;
        if (arguments.Value("listen") is { } address && !IPAddress.TryParse(address, out listen))
        {
            throw new UsageException($"--listen needs an IP address (such as 0.0.0.0 or 192.168.1.10), not '{address}'.", Name);
        }

        var options = new StudioOptions(arguments.Positional(0)!, (int)port, arguments.Flag("read-only"), listen!);
        var server = StudioServer.StartAsync(options).GetAwaiter().GetResult();
        try
        {
            if (!options.IsLoopbackOnly)
            {
                context.Error.WriteLine($"blite: warning: the studio listens on {listen}, not only on this machine: anyone who can reach that address and has the token can read and change '{options.DatabasePath}'.");
            }

            context.Output.WriteLine($"BLite Studio for {options.DatabasePath}{(options.ReadOnly ? " (read-only)" : "")}");
            context.Output.WriteLine(server.LaunchUrl.ToString());
            context.Output.WriteLine("Press Ctrl-C to stop.");
            context.Output.Flush();
            if (arguments.Flag("open"))
            {
                OpenBrowser(server.LaunchUrl, context);
            }

            server.WaitForShutdownAsync().GetAwaiter().GetResult();
        }
        finally
        {
            server.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }

        context.Output.WriteLine("studio stopped; the database is closed.");
        return ExitCodes.Ok;
    }

    /// <summary>The environment variable naming the browser to start, as many Unix tools read it.</summary>
    internal const string BrowserVariable = "BROWSER";

    private static void OpenBrowser(Uri url, CommandContext context)
    {
        var program = BrowserFromEnvironment()
            ?? (OperatingSystem.IsWindows() ? "explorer.exe" : OperatingSystem.IsMacOS() ? "open" : "xdg-open");
        try
        {
            var start = new ProcessStartInfo(program) { UseShellExecute = false };
            start.ArgumentList.Add(url.ToString());
            using var process = Process.Start(start);
        }
        catch (System.ComponentModel.Win32Exception exception)
        {
            context.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"blite: could not start a browser ({program}: {exception.Message}); open the URL above yourself."));
        }
    }

    /// <summary>
    /// The first program in $BROWSER (a colon-separated list by convention), so a user can pick a
    /// browser other than the desktop's default, and a test can see the URL without starting one.
    /// </summary>
    private static string? BrowserFromEnvironment() =>
        Environment.GetEnvironmentVariable(BrowserVariable)?
            .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .FirstOrDefault();
}
