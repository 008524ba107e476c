using System.Text;

namespace BLite.Core.Collections;

/// <summary>Rules shared by collection and index names so the catalog can always store them.</summary>
internal static class CatalogNames
{
    public const int MaxNameBytes = 200;

    public static void Validate(string name, string what)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (name.Length == 0)
        {
            throw new ArgumentException($"A {what} cannot be empty.", nameof(name));
        }

        if (Encoding.UTF8.GetByteCount(name) > MaxNameBytes)
        {
            throw new ArgumentException($"The {what} '{name}' is longer than {MaxNameBytes} UTF-8 bytes.", nameof(name));
        }

        foreach (var c in name)
        {
            if (char.IsControl(c))
            {
                throw new ArgumentException($"The {what} '{name}' contains a control character.", nameof(name));
            }
        }
    }
}
