using BLite.Cli.Arguments;

namespace BLite.Cli.Commands;

/// <summary>One <c>blite</c> sub-command: its name, help text, argument specs and behaviour.</summary>
internal abstract class Command
{
    protected static readonly ArgumentSpec DatabaseArgument = new("database", "Path of the BLite database file (e.g. shop.blite).");

    public abstract string Name { get; }

    /// <summary>One line for the command list in <c>blite --help</c>.</summary>
    public abstract string Summary { get; }

    public virtual IReadOnlyList<ArgumentSpec> Arguments => [DatabaseArgument];

    public virtual IReadOnlyList<OptionSpec> Options => [];

    /// <summary><see cref="Options"/> and the ones every command takes (the key of an encrypted database).</summary>
    public IReadOnlyList<OptionSpec> AllOptions => [.. Options, Database.DatabaseKeys.KeyFile];

    /// <summary>Further help (behaviour, examples), shown by <c>blite NAME --help</c>.</summary>
    public virtual string? Details => null;

    /// <summary>Runs the command and returns the exit code; failures are thrown and mapped by <see cref="CliApplication"/>.</summary>
    public abstract int Execute(ParsedArguments arguments, CommandContext context);
}
