namespace BLite.Cli.Arguments;

/// <summary>The command line itself is wrong: exit code 1, and a pointer to the command's help.</summary>
internal sealed class UsageException : Exception
{
    public UsageException(string message, string? command = null)
        : base(message)
    {
        Command = command;
    }

    /// <summary>The command whose help explains the mistake, when known.</summary>
    public string? Command { get; }
}
