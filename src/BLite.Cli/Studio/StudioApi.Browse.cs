using System.Diagnostics;
using BLite.Bson;
using BLite.Cli.Commands;
using BLite.Cli.Database;
using BLite.Cli.Queries;
using BLite.Core.BTrees;
using BLite.Core.Collections;
using BLite.Core.Query;
using Microsoft.AspNetCore.Http;

namespace BLite.Cli.Studio;

internal sealed partial class StudioApi
{
    private IResult Overview()
    {
        var storage = Database.Storage;
        var statistics = storage.GetStatistics();
        var file = DatabaseFileInspector.Inspect(storage.Path);
        return Results.Json(new
        {
            path = Path.GetFullPath(storage.Path),
            readOnly = _options.ReadOnly,
            formatVersion = file.FormatVersion,
            pageSize = file.PageSize,
            pageCount = file.PageCount,
            freePageCount = file.FreePageCount,
            fileBytes = file.FileLength,
            walBytes = statistics.WalFileBytes,
            walState = file.Wal.Describe(),
            cachedBytes = statistics.CachedBytes,
            cacheBudgetBytes = statistics.CacheBudgetBytes,
            pinnedBytes = statistics.PinnedBytes,
            checkpoints = statistics.Checkpoints,
            commits = statistics.Commits,
            activeReaders = statistics.ActiveReaders,
            collections = Database.GetCollectionNames().Count,
        });
    }

    private IResult Check()
    {
        var report = Database.Verify();
        return Results.Json(new
        {
            valid = report.IsValid,
            pageCount = report.PageCount,
            freePageCount = report.FreePageCount,
            issues = report.Issues.Select(issue => issue.ToString()).ToArray(),
        });
    }

    private IResult Collections()
    {
        using var read = Database.BeginRead();
        var collections = new List<object>();
        foreach (var name in Database.GetCollectionNames(read))
        {
            var raw = Database.GetRawCollection(name);
            collections.Add(new
            {
                name,
                count = raw.Count(read),
                indexes = raw.GetIndexes(read).Select(index => index.Name).Prepend("_id").ToArray(),
            });
        }

        return Results.Json(collections);
    }

    /// <summary>Stored (C-BSON) bytes of every document: a full scan, so the page asks for it separately and shows the count first.</summary>
    private IResult CollectionSize(string name)
    {
        EnsureCollection(name);
        using var read = Database.BeginRead();
        var cursor = Database.GetRawCollection(name).Scan(read);
        long bytes = 0;
        long largest = 0;
        while (cursor.MoveNext())
        {
            bytes += cursor.Document.Length;
            largest = Math.Max(largest, cursor.Document.Length);
        }

        return Results.Json(new { name, dataBytes = bytes, largestBytes = largest });
    }

    /// <summary>
    /// Keyset paging on the primary key: <c>after</c> continues past a page's last key, <c>before</c>
    /// goes back from its first, so every page costs one tree descent and a short walk, however
    /// deep it lies (never a skip over the documents in front). <c>start</c> (an id as
    /// <c>{"_id": value}</c>) jumps to the first document at or after that _id.
    /// </summary>
    private IResult Documents(string name, string? after, string? before, string? start, int? limit)
    {
        EnsureCollection(name);
        var size = PageSize(limit);
        var backwards = before is not null;
        var range = (after, before, start) switch
        {
            (not null, null, null) => KeyRange.From(DecodeKey(after), inclusive: false),
            (null, not null, null) => KeyRange.To(DecodeKey(before), inclusive: false),
            (null, null, not null) => KeyRange.From(IndexKeys.EncodeId(ParseId(start)), inclusive: true),
            (null, null, null) => KeyRange.All,
            _ => throw new StudioException(StatusCodes.Status400BadRequest, "give one of 'after', 'before' and 'start', not several."),
        };

        using var read = Database.BeginRead();
        var cursor = Database.GetRawCollection(name).Scan(read, range, backwards);
        var rows = new List<StudioDocument>(size);
        var more = false;
        while (cursor.MoveNext())
        {
            if (rows.Count == size)
            {
                more = true;
                break;
            }

            var document = BsonDocument.FromBytes(cursor.Document.Span, Database.Fields);
            rows.Add(Describe(document, Convert.ToBase64String(cursor.PrimaryKey)));
        }

        if (backwards)
        {
            rows.Reverse();
        }

        return Results.Json(new
        {
            documents = rows,
            hasPrevious = backwards ? more : after is not null || start is not null,
            hasNext = backwards || more,
            total = Database.GetRawCollection(name).Count(read),
        });
    }

    private IResult Document(string name, string? id)
    {
        EnsureCollection(name);
        var document = Database.GetCollection(name).FindById(ParseId(id))
            ?? throw new StudioException(StatusCodes.Status404NotFound, $"collection '{name}' has no document with {id}.");
        return Results.Json(new { id = IdJson(document), json = document.ToJson(BsonJsonMode.Relaxed), canonical = document.ToJson(BsonJsonMode.Canonical) });
    }

    /// <summary>A filter, sort and limit as <c>blite find</c> takes them; errors name the field of the form they belong to.</summary>
    private IResult Query(string name, StudioQuery body)
    {
        EnsureCollection(name);
        QueryFilter filter;
        List<Core.Query.SortKey> sort;
        try
        {
            filter = QueryText.ParseFilter(string.IsNullOrWhiteSpace(body.Filter) ? "{}" : body.Filter);
        }
        catch (ArgumentException exception)
        {
            return Results.Json(new { error = exception.Message, field = "filter" }, statusCode: StatusCodes.Status400BadRequest);
        }

        try
        {
            sort = QueryText.ParseSort(string.IsNullOrWhiteSpace(body.Sort) ? null : body.Sort);
        }
        catch (ArgumentException exception)
        {
            return Results.Json(new { error = exception.Message, field = "sort" }, statusCode: StatusCodes.Status400BadRequest);
        }

        if (body.Limit is < 1 or > MaxPageSize)
        {
            return Results.Json(new { error = $"limit must be between 1 and {MaxPageSize}.", field = "limit" }, statusCode: StatusCodes.Status400BadRequest);
        }

        var query = new DocumentQuery(filter, sort, null, FilterOperand.FromConstant((long)(body.Limit ?? DefaultPageSize)));
        using var read = Database.BeginRead();
        var collection = Database.GetRawCollection(name);
        var timer = Stopwatch.StartNew();
        var rows = new List<StudioDocument>();
        foreach (var bytes in PlanExecutor.Execute(collection, read, query))
        {
            var document = BsonDocument.FromBytes(bytes.Span, Database.Fields);
            rows.Add(Describe(document, ""));
        }

        var elapsed = timer.Elapsed.TotalMilliseconds;
        return Results.Json(new { documents = rows, plan = PlanExecutor.Explain(collection, read, query), elapsedMs = elapsed });
    }

    private static int PageSize(int? limit) => limit switch
    {
        null => DefaultPageSize,
        < 1 or > MaxPageSize => throw new StudioException(StatusCodes.Status400BadRequest, $"limit must be between 1 and {MaxPageSize}."),
        _ => limit.Value,
    };

    private static byte[] DecodeKey(string key)
    {
        try
        {
            return Convert.FromBase64String(key);
        }
        catch (FormatException)
        {
            throw new StudioException(StatusCodes.Status400BadRequest, "the paging key is not one the studio gave out.");
        }
    }
}

/// <summary>The query form: a JSON filter, a sort list as <c>blite find --sort</c> takes it, and a limit.</summary>
internal sealed record StudioQuery(string? Filter, string? Sort, int? Limit);
