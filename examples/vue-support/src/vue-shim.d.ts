// App.vue is compiled by @vitejs/plugin-vue; to tsc (which does not read .vue files) it is a component.
declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent
  export default component
}
