namespace BLite.Cli.Commands;

/// <summary>The process's streams as a command sees them, so every command writes through one place.</summary>
internal sealed class CommandContext
{
    public CommandContext(TextWriter output, TextWriter error, Func<Stream> openStandardOutput, Func<Stream> openStandardInput, bool errorIsTerminal)
    {
        Output = output;
        Error = error;
        OpenStandardOutput = openStandardOutput;
        OpenStandardInput = openStandardInput;
        ErrorIsTerminal = errorIsTerminal;
    }

    /// <summary>Results: what a script would pipe on.</summary>
    public TextWriter Output { get; }

    /// <summary>Errors and progress; never results.</summary>
    public TextWriter Error { get; }

    public Func<Stream> OpenStandardOutput { get; }

    /// <summary>Reads an environment variable (the process's; tests give their own).</summary>
    public Func<string, string?> GetEnvironmentVariable { get; init; } = Environment.GetEnvironmentVariable;

    public Func<Stream> OpenStandardInput { get; }

    /// <summary>Progress bars are drawn only for a person watching a terminal, never into a redirected stream.</summary>
    public bool ErrorIsTerminal { get; }

    /// <summary>For work done on behalf of the studio: no terminal, so no progress bars, and nothing printed.</summary>
    public static CommandContext Silent { get; } = new(TextWriter.Null, TextWriter.Null, () => Stream.Null, () => Stream.Null, false);

    public static CommandContext FromConsole() => new(
        Console.Out,
        Console.Error,
        Console.OpenStandardOutput,
        Console.OpenStandardInput,
        !Console.IsErrorRedirected);
}
