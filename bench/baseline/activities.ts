export const baselineActivities = {
  async noop(i: number): Promise<number> {
    return i;
  },
};
