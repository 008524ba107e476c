using System.Globalization;
using BLite.Bson;
using BLite.Cli.Arguments;
using BLite.Cli.Database;
using BLite.Cli.Output;
using BLite.Core;
using BLite.Core.ChangeFeed;

namespace BLite.Cli.Commands;

/// <summary>Prints committed changes as JSON lines as they commit, like <c>tail -f</c>.</summary>
internal sealed class WatchCommand : Command
{
    // Commits of the application's process cannot wake this one, so the journal is polled.
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(50);

    public override string Name => "watch";

    public override string Summary => "Print committed changes as JSON lines as they commit (the change feed), like tail -f.";

    public override IReadOnlyList<ArgumentSpec> Arguments =>
        [DatabaseArgument, new ArgumentSpec("collection", "Only this collection's changes (default: every collection with a change feed).", Optional: true)];

    public override IReadOnlyList<OptionSpec> Options =>
    [
        new OptionSpec("from", "now|oldest|TOKEN", "Where to start: 'now' (default), 'oldest' (everything the journal still holds), or just after a token printed earlier."),
        new OptionSpec("count", "n", "Stop after n changes (default: run until Ctrl-C)."),
        new OptionSpec("canonical", null, "Canonical Extended JSON (every type round-trips) instead of relaxed."),
    ];

    public override string Details =>
        """
        Each line is one change of a committed transaction, in commit order:
          {"token": "42:end", "sequence": 42, "time": ..., "collection": "orders",
           "operation": "update", "id": ..., "document": {...}, "before": {...}, "last": true}
        'before' appears when the collection keeps before-images; 'last' marks the transaction's
        last change. Store the token of the last line you handled and pass it to --from to carry
        on exactly after it. It reads the database read-only, so the application keeps writing.
        Ctrl-C ends it cleanly (exit code 0). A token older than the journal's retention fails
        with a message saying where the journal now starts.

        Examples:
          blite watch shop.blite orders
          blite watch shop.blite --from oldest --count 100
          blite watch shop.blite --from 42:end
        """;

    public override int Execute(ParsedArguments arguments, CommandContext context)
    {
        var path = Path.GetFullPath(arguments.Positional(0)!);
        DatabaseFiles.EnsureExists(path);
        var collection = arguments.Positional(1);
        var limit = arguments.NonNegativeInteger("count", long.MaxValue);
        var mode = arguments.Flag("canonical") ? BsonJsonMode.Canonical : BsonJsonMode.Relaxed;
        var start = ParseStart(arguments.Value("from") ?? "now");
        var poller = new ChangeFeedPoller(path, DatabaseKeys.For(path));
        if (collection is not null && !poller.HasChangeFeed(collection))
        {
            throw new CommandException($"collection '{collection}' has no change feed (declare it with HasChangeFeed(), or EnableChangeFeed() on a schemaless collection).");
        }

        using var interrupted = new CancellationTokenSource();
        ConsoleCancelEventHandler onCancel = (_, e) =>
        {
            e.Cancel = true;
            interrupted.Cancel();
        };
        Console.CancelKeyPress += onCancel;
        try
        {
            using var output = JsonLinesWriter.ToStandardOutput(context);
            var token = poller.Resolve(start);
            long printed = 0;
            while (printed < limit && !interrupted.IsCancellationRequested)
            {
                var (changes, fields) = poller.Read(token, DocumentDatabase.WatchBatchSize);
                foreach (var change in changes)
                {
                    token = change.Token;
                    if (collection is null || change.Collection == collection)
                    {
                        output.Write(ToJson(change, fields), mode);
                        if (++printed == limit)
                        {
                            break;
                        }
                    }
                }

                output.Flush();
                if (changes.Count == 0)
                {
                    interrupted.Token.WaitHandle.WaitOne(PollInterval);
                }
            }
        }
        finally
        {
            Console.CancelKeyPress -= onCancel;
        }

        return ExitCodes.Ok;
    }

    private ChangeFeedStart ParseStart(string text)
    {
        try
        {
            return ChangeFeedStart.Parse(text);
        }
        catch (BLiteException)
        {
            throw new UsageException($"--from needs 'now', 'oldest' or a token such as '42:0' or '42:end', not '{text}'.", Name);
        }
    }

    private static BsonDocument ToJson(JournalEvent change, BsonFieldDictionary fields)
    {
        var line = new BsonDocument
        {
            ["token"] = change.Token.ToString(),
            ["sequence"] = (long)change.Sequence,
            ["time"] = change.CommitTime,
            ["collection"] = change.Collection,
            ["operation"] = change.Operation.ToString().ToLower(CultureInfo.InvariantCulture),
            ["id"] = BsonDocument.FromBytes(change.Id, fields)[BsonFieldDictionary.IdFieldName],
        };
        if (change.After is not null)
        {
            line["document"] = BsonDocument.FromBytes(change.After, fields);
        }

        if (change.Before is not null)
        {
            line["before"] = BsonDocument.FromBytes(change.Before, fields);
        }

        line["last"] = change.EndsTransaction;
        return line;
    }
}
