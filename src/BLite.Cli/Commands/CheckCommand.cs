using BLite.Cli.Arguments;
using BLite.Cli.Database;

namespace BLite.Cli.Commands;

/// <summary>Runs the engine's consistency checker; exit code 2 and one line per problem when anything is damaged.</summary>
internal sealed class CheckCommand : Command
{
    public override string Name => "check";

    public override string Summary => "Verify every page, tree, index and counter; exit code 2 if anything is damaged.";

    public override string Details =>
        """
        Checks checksums of every page, the header and free list, that each page belongs to
        exactly one structure (or is free), every B+ tree, and that every document's index entries
        and counters agree. Problems are listed on standard output, one per line, naming the page.
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        using var database = DatabaseFiles.OpenForReading(arguments.Positional(0)!);
        var report = database.Verify();
        if (report.IsValid)
        {
            context.Output.WriteLine($"ok: {report.PageCount} pages ({report.FreePageCount} free), no problems found");
            return ExitCodes.Ok;
        }

        foreach (var issue in report.Issues)
        {
            context.Output.WriteLine(issue.ToString());
        }

        throw new CommandException(
            $"damage found: {report.Issues.Count} problem(s) in '{report.Path}', first at {report.Issues[0]}",
            ExitCodes.Damage);
    }
}
