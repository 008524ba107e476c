namespace BLite.Bson.Tests;

/// <summary>Seeded damage to valid encodings, shared by the fuzz tests of every reader.</summary>
internal static class ByteMutations
{
    /// <summary>
    /// One to three mutations: a random byte, a flipped bit, a removed run, an inserted byte, a
    /// truncation, and (with <paramref name="corruptLengths"/>) an extreme value written over a
    /// 4-byte window, where length prefixes live.
    /// </summary>
    public static byte[] Mutate(byte[] original, Random random, bool corruptLengths)
    {
        var bytes = original.ToList();
        var mutations = random.Next(1, 4);
        for (var m = 0; m < mutations && bytes.Count > 0; m++)
        {
            var at = random.Next(bytes.Count);
            switch (random.Next(corruptLengths ? 6 : 5))
            {
                case 0:
                    bytes[at] = (byte)random.Next(256);
                    break;
                case 1:
                    bytes[at] ^= (byte)(1 << random.Next(8));
                    break;
                case 2:
                    bytes.RemoveRange(at, Math.Min(random.Next(1, 5), bytes.Count - at));
                    break;
                case 3:
                    bytes.Insert(at, (byte)random.Next(256));
                    break;
                case 4:
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
                default:
                    int[] extremes = [0, 1, 4, 5, -1, int.MaxValue, int.MinValue, bytes.Count, bytes.Count + 1];
                    var value = BitConverter.GetBytes(extremes[random.Next(extremes.Length)]);
                    for (var k = 0; k < 4 && at + k < bytes.Count; k++)
                    {
                        bytes[at + k] = value[k];
                    }

                    break;
            }
        }

        return [.. bytes];
    }
}
