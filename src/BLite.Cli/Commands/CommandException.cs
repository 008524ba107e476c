namespace BLite.Cli.Commands;

/// <summary>A command cannot do its job for a reason the user can fix; the message is the one line shown.</summary>
internal sealed class CommandException : Exception
{
    public CommandException(string message, int exitCode = ExitCodes.Error)
        : base(message)
    {
        ExitCode = exitCode;
    }

    public CommandException(string message, Exception innerException, int exitCode = ExitCodes.Error)
        : base(message, innerException)
    {
        ExitCode = exitCode;
    }

    public int ExitCode { get; }
}
