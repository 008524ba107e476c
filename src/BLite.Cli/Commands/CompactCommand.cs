using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Storage.Devices;
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
    /// Copies the database at <paramref name="path"/> into PATH.<paramref name="command"/>,
    /// verifies the copy, and renames it over the original. Until that rename the original is
    /// untouched, and on any failure the copy is removed; shared by <c>compact</c> and
    /// <c>upgrade</c>.
    /// </summary>
    /// <param name="openSource">Opens the original for writing (so it is locked and its WAL recovered).</param>
    /// <param name="onCopied">Called with the running total after each copied document.</param>
    /// <param name="copyEncryption">The copy's encryption (null for a plain copy); when not given, the key of this run, so an encrypted database stays encrypted.</param>
    internal static void RewriteSafely(string path, string command, string operation, string activity, Func<DocumentDatabase> openSource, CommandContext context, Action<long>? onCopied = null, Func<BLiteEncryption?>? copyEncryption = null)
    {
        var encryption = copyEncryption is null ? DatabaseKeys.Current : copyEncryption();
        var copyPath = path + "." + command;
        var copyWalPath = StorageEngine.WalPathFor(copyPath);
        if (File.Exists(copyPath) || File.Exists(copyWalPath))
        {
            throw new CommandException($"'{copyPath}' exists, perhaps left by an interrupted {operation}; remove it and run {command} again.");
        }

        try
        {
            using (var source = openSource())
            {
                WriteVerifiedCopy(source, copyPath, activity, context, onCopied, encryption);
            }

            // The original is closed (and so checkpointed: its WAL holds nothing the file lacks).
            // Remove the copy's and the original's logs first, so no log of another database is
            // ever left beside the new file; then one rename swaps the files.
            File.Delete(copyWalPath);
            File.Delete(StorageEngine.WalPathFor(path));
            File.Move(copyPath, path, overwrite: true);
            FileDevice.FlushDirectoryOf(path);
        }
        catch
        {
            DeleteQuietly(copyPath);
            DeleteQuietly(copyWalPath);
            throw;
        }
    }

    private static void WriteVerifiedCopy(DocumentDatabase source, string copyPath, string activity, CommandContext context, Action<long>? onCopied, BLiteEncryption? encryption)
    {
        using var snapshot = source.BeginRead();
        long total = 0;
        foreach (var name in source.GetCollectionNames(snapshot))
        {
            total += source.GetRawCollection(name).Count(snapshot);
        }

        Dictionary<string, long> copied;
        var options = new StorageOptions { PageSize = source.Storage.PageSize, Durability = Durability.Normal, Encryption = encryption };
        using (var progress = ProgressBar.Start(context, activity, total, "documents"))
        using (var target = DocumentDatabase.Open(copyPath, options))
        {
            copied = source.CopyTo(snapshot, target, done =>
            {
                progress.Report(done);
                onCopied?.Invoke(done);
            });
            target.Checkpoint();
        }

        using (var check = DocumentDatabase.Open(copyPath, options))
        {
            var report = check.Verify();
            if (!report.IsValid)
            {
                throw new CommandException($"the new copy failed verification ({report.Issues[0]}); the original is unchanged.");
            }

            using var read = check.BeginRead();
            foreach (var (name, count) in copied)
            {
                var stored = check.GetRawCollection(name).Count(read);
                if (stored != count || count != source.GetRawCollection(name).Count(snapshot))
                {
                    throw new CommandException($"the new copy of '{name}' holds {stored} document(s) instead of {count}; the original is unchanged.");
                }
            }
        }

        // Closing checkpointed the copy; make sure its bytes are on disk before it can replace the original.
        using var file = new FileStream(copyPath, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
        file.Flush(flushToDisk: true);
    }

    private static void DeleteQuietly(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
            // The original error is the one to report; a leftover copy is named by the next run.
        }
    }
}
