using System.Collections;
using System.Reflection;

namespace BLite.Generators.ExecutionTests;

/// <summary>
/// Compares two object graphs field by field (public and private instance fields, including
/// auto-property backing fields), so a round-trip test sees every piece of state, not just what
/// an Equals override chooses to compare. DateTime also compares Kind and DateTimeOffset its
/// offset, which their own Equals ignore.
/// </summary>
internal static class DeepEquality
{
    public static void AssertEqual(object? expected, object? actual) => Compare(expected, actual, "root", 0);

    private static void Compare(object? expected, object? actual, string path, int depth)
    {
        if (depth > 200)
        {
            throw new InvalidOperationException($"Comparison deeper than 200 levels at {path}.");
        }

        if (expected is null || actual is null)
        {
            Assert.True(expected is null && actual is null, $"{path}: expected {Show(expected)}, got {Show(actual)}");
            return;
        }

        var type = expected.GetType();
        // A member declared as an interface (IReadOnlyList<T>...) is read back as the collection the
        // mapper creates; collections are compared by content, everything else by exact type.
        var isCollection = expected is IEnumerable and not string;
        Assert.True(isCollection || type == actual.GetType(), $"{path}: expected type {type}, got {actual.GetType()}");
        switch (expected)
        {
            case DateTime dateTime:
                var other = (DateTime)actual;
                Assert.True(dateTime.Ticks == other.Ticks && dateTime.Kind == other.Kind, $"{path}: expected {dateTime:O} ({dateTime.Kind}), got {other:O} ({other.Kind})");
                return;
            case DateTimeOffset offset:
                var otherOffset = (DateTimeOffset)actual;
                Assert.True(offset.Ticks == otherOffset.Ticks && offset.Offset == otherOffset.Offset, $"{path}: expected {offset:O}, got {otherOffset:O}");
                return;
            case decimal number:
                // decimal.Equals ignores scale (1.0m == 1.00m); the stored form must keep it.
                Assert.True(number.Equals(actual) && number.Scale == ((decimal)actual).Scale, $"{path}: expected {number}, got {actual}");
                return;
            case string or Guid or Enum or TimeSpan or DateOnly or TimeOnly or BLite.ObjectId:
                Assert.True(expected.Equals(actual), $"{path}: expected {Show(expected)}, got {Show(actual)}");
                return;
        }

        if (type.IsPrimitive)
        {
            Assert.True(expected.Equals(actual), $"{path}: expected {Show(expected)}, got {Show(actual)}");
            return;
        }

        if (expected is IDictionary expectedDictionary)
        {
            var actualDictionary = (IDictionary)actual;
            Assert.True(expectedDictionary.Count == actualDictionary.Count, $"{path}: expected {expectedDictionary.Count} entries, got {actualDictionary.Count}");
            foreach (DictionaryEntry entry in expectedDictionary)
            {
                Assert.True(actualDictionary.Contains(entry.Key), $"{path}: key '{entry.Key}' is missing");
                Compare(entry.Value, actualDictionary[entry.Key], $"{path}[{entry.Key}]", depth + 1);
            }

            return;
        }

        if (IsSet(type))
        {
            var expectedItems = ((IEnumerable)expected).Cast<object?>().ToList();
            var actualItems = ((IEnumerable)actual).Cast<object?>().ToHashSet();
            Assert.True(expectedItems.Count == actualItems.Count, $"{path}: expected {expectedItems.Count} items, got {actualItems.Count}");
            foreach (var item in expectedItems)
            {
                Assert.True(actualItems.Contains(item), $"{path}: item {Show(item)} is missing");
            }

            return;
        }

        if (expected is IEnumerable expectedItemsEnumerable)
        {
            var expectedList = expectedItemsEnumerable.Cast<object?>().ToList();
            var actualList = ((IEnumerable)actual).Cast<object?>().ToList();
            Assert.True(expectedList.Count == actualList.Count, $"{path}: expected {expectedList.Count} items, got {actualList.Count}");
            for (var i = 0; i < expectedList.Count; i++)
            {
                Compare(expectedList[i], actualList[i], $"{path}[{i}]", depth + 1);
            }

            return;
        }

        for (var current = type; current is not null && current != typeof(object); current = current.BaseType)
        {
            foreach (var field in current.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly))
            {
                Compare(field.GetValue(expected), field.GetValue(actual), path + "." + field.Name, depth + 1);
            }
        }
    }

    private static bool IsSet(Type type)
        => type.GetInterfaces().Any(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(ISet<>));

    private static string Show(object? value) => value switch
    {
        null => "null",
        string text => $"\"{text}\"",
        _ => value.ToString() ?? value.GetType().Name,
    };
}
