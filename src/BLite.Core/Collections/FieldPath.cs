namespace BLite.Core.Collections;

/// <summary>Dotted field paths (<c>customer.billingAddress.city</c>) as index definitions name them.</summary>
public static class FieldPath
{
    /// <summary>Most segments a path may have; deeper documents are still stored, just not indexable.</summary>
    public const int MaxDepth = 32;

    public static void Validate(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (path.Length == 0)
        {
            throw new ArgumentException("A field path cannot be empty.", nameof(path));
        }

        var segments = 1;
        var segmentStart = 0;
        for (var i = 0; i <= path.Length; i++)
        {
            if (i < path.Length && path[i] != '.')
            {
                continue;
            }

            if (i == segmentStart)
            {
                throw new ArgumentException($"The field path '{path}' has an empty segment.", nameof(path));
            }

            if (i < path.Length)
            {
                segments++;
            }

            segmentStart = i + 1;
        }

        if (segments > MaxDepth)
        {
            throw new ArgumentException($"The field path '{path}' is deeper than {MaxDepth} segments.", nameof(path));
        }
    }

    public static string[] Split(string path)
    {
        Validate(path);
        return path.Split('.');
    }
}
