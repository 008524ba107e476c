using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Core.Storage;
using BLite.Core;

namespace BLite.Cli.Commands;

/// <summary>
/// Rewrites a database into a smaller file. The copy is written beside the original, flushed,
/// verified (consistency check and per-collection counts) and only then renamed over the
/// original in one atomic step; if anything fails before that, the original is untouched and the
/// copy is removed.
/// </summary>
internal sealed class CompactCommand : Command
{
    public override string Name => "compact";

    public override string Summary => "Rewrite the database into a smaller file, safely (copy, verify, then replace).";

    public override string Details =>
        """
        Writes DATABASE.compact beside the database, copying every collection, index definition
        and document; checks the copy; then atomically renames it over the original. The original
        stays unchanged if anything fails before that rename. Needs free disk space for the copy,
        and no other process may use the database meanwhile.
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var path = Path.GetFullPath(arguments.Positional(0)!);
        DatabaseFiles.EnsureExists(path);
        var sizeBefore = DatabaseFiles.LengthOrZero(path) + DatabaseFiles.LengthOrZero(StorageEngine.WalPathFor(path));
        RewriteSafely(path, Name, "compaction", "compacting", () => DatabaseFiles.OpenExisting(path), context);
        var sizeAfter = DatabaseFiles.LengthOrZero(path);
        var saved = sizeBefore == 0 ? 0 : 100.0 * (sizeBefore - sizeAfter) / sizeBefore;
        context.Output.WriteLine($"compacted '{path}': {InfoCommand.Bytes(sizeBefore)} (file and WAL) -> {InfoCommand.Bytes(sizeAfter)} ({saved:0.#}% smaller)");
        return ExitCodes.Ok;
    }

    /// <summary>
    /// Rewrites the database at <paramref name="path"/> through PATH.<paramref name="command"/>
    /// with the library's copy, verify and replace (<see cref="DocumentDatabase.Rewrite"/>),
    /// showing progress; shared by <c>compact</c>, <c>upgrade</c> and <c>rekey</c>.
    /// </summary>
    /// <param name="openSource">Opens the original for writing (so it is locked and its WAL recovered).</param>
    /// <param name="onCopied">Called with the running total after each copied document.</param>
    /// <param name="copyEncryption">The copy's encryption (null for a plain copy); when not given, the key of this run, so an encrypted database stays encrypted.</param>
    internal static void RewriteSafely(string path, string command, string operation, string activity, Func<DocumentDatabase> openSource, CommandContext context, Action<long>? onCopied = null, Func<BLiteEncryption?>? copyEncryption = null)
    {
        var encryption = copyEncryption is null ? DatabaseKeys.For(path) : copyEncryption();
        ProgressBar? progress = null;
        try
        {
            var steps = new RewriteSteps
            {
                Progress = (done, total) =>
                {
                    progress ??= ProgressBar.Start(context, activity, total, "documents");
                    progress.Report(done);
                    if (done > 0)
                    {
                        onCopied?.Invoke(done);
                    }
                },
            };
            DocumentDatabase.Rewrite(path, command, operation, openSource, encryption, steps);
        }
        finally
        {
            progress?.Dispose();
        }
    }
}
