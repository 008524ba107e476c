using BLite.Core;
using BLite.Core.Query;

namespace BLite.Cli.Queries;

/// <summary>
/// Turns the text a person types (a JSON filter, a sort list) into a query, for <c>blite find</c>
/// and the studio alike, so both accept and refuse exactly the same input with the same words.
/// </summary>
internal static class QueryText
{
    /// <summary>Parses a MongoDB-style JSON filter; throws <see cref="ArgumentException"/> whose message starts "bad filter:".</summary>
    public static QueryFilter ParseFilter(string text)
    {
        try
        {
            return JsonFilterParser.Parse(text);
        }
        catch (Exception exception) when (exception is BLiteException or ArgumentException)
        {
            throw new ArgumentException("bad filter: " + exception.Message, exception);
        }
    }

    /// <summary>
    /// Parses comma-separated field paths, '-path' for descending; null gives no sort.
    /// Throws <see cref="ArgumentException"/> whose message starts "bad sort".
    /// </summary>
    public static List<SortKey> ParseSort(string? text)
    {
        var keys = new List<SortKey>();
        if (text is null)
        {
            return keys;
        }

        foreach (var part in text.Split(','))
        {
            var term = part.Trim();
            var descending = term.StartsWith('-');
            var path = descending || term.StartsWith('+') ? term[1..] : term;
            if (path.Length == 0)
            {
                throw new ArgumentException($"bad sort '{text}': every term needs a field path.");
            }

            try
            {
                keys.Add(new SortKey(FieldPath.Parse(path), descending));
            }
            catch (ArgumentException exception)
            {
                throw new ArgumentException($"bad sort '{text}': {exception.Message}", exception);
            }
        }

        return keys;
    }
}
